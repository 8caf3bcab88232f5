package bytebuf_test

import (
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	except := map[string]string{
		"nil Buffer.AppendFloat":  "bitSize 0: strconv panics first, naming AppendFloat/FormatFloat",
		"zero Buffer.AppendFloat": "bitSize 0: strconv panics first, naming AppendFloat/FormatFloat",
		"zero Buffer.ReadFrom":    "a nil io.Reader is dereferenced, as by bytes.Buffer.ReadFrom",
	}
	if !debug.Enabled {
		for _, m := range bareMethods {
			except["nil Buffer."+m] = "named in the debug build only: see bareMethods"
		}
	}
	misusetest.Check(t, []any{(*bytebuf.Buffer)(nil), (*bytebuf.Config)(nil), (*bytebuf.Pool)(nil), (*bytebuf.Stats)(nil)}, except)
}

// bareMethods are the Buffer methods that the normal build leaves to panic,
// on a nil receiver, at the first use of the buffer's slice, as bytes.Buffer
// does; the debug build names them (debug.Live). A check in the hot ones
// would cost a branch, and WriteByte and Grow their inlining (cost 85 of
// 80); in the others, 30 lines past the 1200 that TestSmallEnough allows.
var bareMethods = []string{
	"AppendBool", "AppendInt", "AppendQuote", "AppendTime", "AppendUint", "AvailableBuffer", "Bytes", "Cap", "Grow",
	"Len", "ReadFrom", "Reset", "Truncate", "Write", "WriteByte", "WriteRune", "WriteString", "WriteTo",
}
