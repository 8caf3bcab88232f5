package reuse_test

import (
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*reuse.Misuse)(nil), (*reuse.MisuseKind)(nil), (*reuse.Pool[int])(nil), (*reuse.Pool[*int])(nil), (*reuse.Slices[byte])(nil), (*reuse.Stats)(nil)}, nil)
}
