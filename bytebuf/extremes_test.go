package bytebuf_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
)

// TestGrowExtremes checks Grow at the extreme counts, on a Buffer of its own
// and on one from a Pool: it panics (negative count, or too large to
// allocate) or makes the room asked for, never less. 2*cap+n used to
// overflow for n near math.MaxInt and leave a 64-byte buffer behind.
func TestGrowExtremes(t *testing.T) {
	var pool bytebuf.Pool
	counts := []int{math.MaxInt, math.MaxInt - 1, 1 << 20, 0, -1, math.MinInt}
	if strconv.IntSize == 64 {
		// Sizes that fail to allocate, cleanly, only where int has 64
		// bits: with 32, they can be tried, and exhaust memory.
		counts = append(counts, math.MaxInt-100, math.MaxInt/2)
	}
	for _, n := range counts {
		for _, src := range []string{"own", "pooled"} {
			b := new(bytebuf.Buffer)
			if src == "pooled" {
				b = pool.Get()
			}
			b.WriteString("abc")
			var p any
			func() {
				defer func() { p = recover() }()
				b.Grow(n)
			}()
			switch {
			case n < 0 && p == nil:
				t.Errorf("%s: Grow(%d) did not panic, want a negative count panic", src, n)
			case p == nil && b.Cap()-b.Len() < n:
				t.Errorf("%s: Grow(%d) returned with Cap %d, Len %d: less room than asked", src, n, b.Cap(), b.Len())
			case p != nil && n >= 0 && n < 1<<30:
				t.Errorf("%s: Grow(%d) panicked: %v", src, n, p)
			case p != nil:
				t.Logf("%s: Grow(%d): panic %s", src, n, fmt.Sprint(p))
			}
			if src == "pooled" {
				pool.Put(b)
			}
		}
	}
}
