package httpcompress_test

import (
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*httpcompress.Config)(nil), (*httpcompress.ETagMode)(nil), (*httpcompress.Encoding)(nil)}, nil)
}
