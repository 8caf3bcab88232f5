package codec_test

import (
	"testing"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*codec.Codec)(nil), (*codec.Format)(nil), (*codec.Reader)(nil), (*codec.Writer)(nil)}, nil)
}
