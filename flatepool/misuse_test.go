package flatepool_test

import (
	"testing"

	"github.com/reuse-go/reuse/flatepool"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*flatepool.Reader)(nil), (*flatepool.Writer)(nil)}, nil)
}
