package reuse

import (
	"runtime"
	"testing"

	"github.com/reuse-go/reuse/internal/perp"
)

// TestGOMAXPROCSUp: a pool first used with one P gives every P a slot once
// GOMAXPROCS grows, at the next use on a P beyond its slots.
func TestGOMAXPROCSUp(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p Pool[*int]
	var s Slices[byte]
	p.Put(new(int))
	s.Put(make([]byte, 8))
	if n := p.slots.Len(); n != 1 {
		t.Fatalf("Pool: %d slots at GOMAXPROCS 1, want 1", n)
	}
	runtime.GOMAXPROCS(8)
	if runtime.GOMAXPROCS(0) != 8 {
		t.Skip("GOMAXPROCS cannot be raised on this platform (js/wasm, wasip1)")
	}
	rounds := perp.SpreadUntil(64, 10, func() {
		p.Put(p.Get())
		s.Put(s.Get(8))
	}, func() bool { return p.slots.Len() == 8 && s.st.Load().slots.Len() == 8 })
	if n := p.slots.Len(); n != 8 {
		t.Errorf("Pool: %d slots after GOMAXPROCS 1 -> 8, want 8", n)
	}
	if n := s.st.Load().slots.Len(); n != 8 {
		t.Errorf("Slices: %d slots after GOMAXPROCS 1 -> 8, want 8", n)
	}
	if st := p.Stats(); st.News > uint64(64*rounds) {
		t.Errorf("Pool: %d News for 64 goroutines in %d rounds, want at most 64 a round", st.News, rounds)
	}
}

// TestCountAllAcrossGrowth: counters kept in the slots survive the slots
// being replaced by a larger array.
func TestCountAllAcrossGrowth(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	p := Pool[*int]{New: func() *int { return new(int) }, CountAll: true}
	for range 10 {
		p.Put(p.Get())
	}
	runtime.GOMAXPROCS(4)
	perp.Spread(8, 10, func() { p.Put(p.Get()) })
	if s := p.Stats(); s.Gets != 90 || s.Puts != 90 {
		t.Errorf("Stats = %+v, want 90 Gets and 90 Puts", s)
	}
}
