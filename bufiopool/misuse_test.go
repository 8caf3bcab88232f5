package bufiopool_test

import (
	"testing"

	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod calls every exported method on a nil and a zero
// receiver: each returns or panics naming the package and method.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, []any{(*bufiopool.Reader)(nil), (*bufiopool.Writer)(nil)}, map[string]string{
		"promoted Reader": bufioPromoted,
		"promoted Writer": bufioPromoted,
	})
}

// bufioPromoted is why the methods of the embedded *bufio.Reader and
// *bufio.Writer are not called: a zero or closed handle holds a nil one, and
// its methods then panic with a nil dereference on the caller's goroutine,
// as the field's doc says. Naming them would take a wrapper for each of
// bufio's 26 methods, a second API beside the embedded one that callers pass
// on (textproto.NewReader(r.Reader)), which would still panic unnamed.
const bufioPromoted = "bufio's own methods on a nil *bufio.Reader or *bufio.Writer"
