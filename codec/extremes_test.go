package codec_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestDecompressLimitExtremes checks the one-shot Decompress of every format
// at the extreme limits: the largest ones decompress (the limit arithmetic
// does not overflow), and a negative one panics with the documented message.
func TestDecompressLimitExtremes(t *testing.T) {
	src := text(1000)
	for _, f := range formats {
		stream := f.stdCompress(t, src, 6)
		for _, limit := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt / 2, len(src)} {
			out, err := f.decompress(nil, stream, int64(limit))
			if err != nil || !bytes.Equal(out, src) {
				t.Errorf("%s: Decompress(limit %d) = %d bytes, %v; want the %d source bytes", f.name, limit, len(out), err, len(src))
			}
		}
		for _, limit := range []int{-1, math.MinInt} {
			var p any
			func() {
				defer func() { p = recover() }()
				f.decompress(nil, stream, int64(limit))
			}()
			if msg := fmt.Sprint(p); !strings.Contains(msg, "negative limit") {
				t.Errorf("%s: Decompress(limit %d): panic %v, want a negative limit panic", f.name, limit, p)
			}
		}
	}
}
