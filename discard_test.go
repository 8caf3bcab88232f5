package reuse_test

import (
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// TestDiscardCostsNothing checks that Discard, which only informs the debug
// build, allocates nothing and leaves the pool working in a normal build.
func TestDiscardCostsNothing(t *testing.T) {
	if reuse.Debug {
		t.Skip("the debug build records each Discard")
	}
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	var s reuse.Slices[byte]
	x, y := p.Get(), s.Get(10)
	reusetest.AllocsAtMost(t, 0, func() {
		p.Discard(x)
		s.Discard(y)
	})
	if p.Get() == nil || len(s.Get(3)) != 3 {
		t.Error("the pools stopped working after Discard")
	}
}
