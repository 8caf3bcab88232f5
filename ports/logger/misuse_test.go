package logger_test

import (
	"testing"

	"github.com/reuse-go/reuse/internal/misusetest"
	"github.com/reuse-go/reuse/ports/logger"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*logger.Event)(nil), (*logger.Logger)(nil)}, nil)
}
