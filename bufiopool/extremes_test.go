package bufiopool_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/bufiopool"
)

// TestSizeExtremes checks NewReader and NewWriter at extreme sizes: a size
// at or below MinSize gets MinSize, a size too large to allocate panics with
// the runtime's makeslice error as bufio.NewReaderSize does (never an index
// or shift error from the class arithmetic), and MaxPooledSize and one above
// it get buffers of their size.
func TestSizeExtremes(t *testing.T) {
	huge := []int{math.MaxInt, math.MaxInt - 1, math.MaxInt / 2}
	if strconv.IntSize == 32 {
		huge = nil // bufio would try to allocate them, and exhaust memory
	}
	for _, n := range huge {
		for _, f := range []func(){
			func() { bufiopool.NewReader(strings.NewReader(""), n) },
			func() { bufiopool.NewWriter(new(strings.Builder), n) },
		} {
			var p any
			func() {
				defer func() { p = recover() }()
				f()
			}()
			if msg := fmt.Sprint(p); !strings.Contains(msg, "makeslice") {
				t.Errorf("size %d: panic %v, want the runtime's makeslice error", n, p)
			}
		}
	}
	for _, tc := range []struct{ size, want int }{
		{math.MinInt, bufiopool.MinSize}, {-1, bufiopool.MinSize}, {0, bufiopool.MinSize},
		{bufiopool.MaxPooledSize, bufiopool.MaxPooledSize}, {bufiopool.MaxPooledSize + 1, bufiopool.MaxPooledSize + 1},
	} {
		r := bufiopool.NewReader(strings.NewReader(""), tc.size)
		w := bufiopool.NewWriter(new(strings.Builder), tc.size)
		if r.Size() != tc.want || w.Size() != tc.want {
			t.Errorf("size %d: Reader.Size() = %d, Writer.Size() = %d, want %d", tc.size, r.Size(), w.Size(), tc.want)
		}
		r.Close()
		w.Close()
	}
}
