package gzpool_test

import (
	"testing"

	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*gzpool.Reader)(nil), (*gzpool.Writer)(nil)}, nil)
}
