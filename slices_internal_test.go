package reuse

import (
	"testing"
	"unsafe"

	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// slotP0 returns what the calling goroutine's P's slot holds. The test must
// run with GOMAXPROCS(1) for the answer to stay true.
func slotP0[E any](s *Slices[E]) (unsafe.Pointer, int) {
	var ptr unsafe.Pointer
	var c int
	s.st.Load().slots.Each(func(pid int, sl *slicesSlot) {
		if pid == 0 {
			ptr, c = sl.last.data, sl.last.size
		}
	})
	if ptr == nil {
		c = 0
	}
	return ptr, c
}

// TestSlicesSlot pins down what the per-P slot holds first: the last slice
// Put, with its capacity rounded down to a class size; what it held before
// moves to the second place (TestSlicesSlotSecondPlace) rather than being
// lost.
func TestSlicesSlot(t *testing.T) {
	perp.OnOnePNoGC(t)
	var p Slices[byte]
	a := make([]byte, 10, 1000) // class 896
	b := p.Get(64)
	p.Put(a)
	if ptr, c := slotP0(&p); ptr != unsafe.Pointer(unsafe.SliceData(a)) || c != 896 {
		t.Fatalf("slot after Put(cap 1000) = %p, %d; want %p, 896", ptr, c, unsafe.SliceData(a))
	}
	p.Put(b) // takes the slot: a moves to the second place
	if ptr, c := slotP0(&p); ptr != unsafe.Pointer(unsafe.SliceData(b)) || c != 64 {
		t.Fatalf("slot after Put(cap 64) = %p, %d; want %p, 64", ptr, c, unsafe.SliceData(b))
	}
	g1 := p.Get(800)
	defer p.Discard(g1) // given up, not Put: a Put would refill the slot under test
	if unsafe.SliceData(g1) != unsafe.SliceData(a) || cap(g1) != 896 {
		t.Errorf("Get(800) after a moved to the second place: cap %d, same array %v; want a with cap 896",
			cap(g1), unsafe.SliceData(g1) == unsafe.SliceData(a))
	}
	g2 := p.Get(64)
	defer p.Discard(g2)
	if unsafe.SliceData(g2) != unsafe.SliceData(b) {
		t.Errorf("Get(64): not the slice in the slot")
	}
	if ptr, c := slotP0(&p); ptr != nil || c != 0 {
		t.Errorf("slot after Get took it = %p, %d; want nil, 0", ptr, c)
	}
	if s := p.Stats(); s.News != 1 || s.Drops != 0 {
		t.Errorf("Stats = %+v; want 1 new (the first Get), 0 drops", s)
	}
}

// TestSlicesSlotServesSmallerClasses: the slice at hand in the P's slot
// serves a Get of any class below its own down to half its size, as a
// larger class from the sync.Pools does, and no smaller one. It used to serve
// only its own class, and a Get of the class below made a new slice while
// the slot held one that fit.
func TestSlicesSlotServesSmallerClasses(t *testing.T) {
	perp.OnOnePNoGC(t)
	var p Slices[byte]
	for _, tt := range []struct {
		n     int
		serve bool
	}{{1280, true}, {1000, true}, {641, true}, {640, false}, {100, false}, {1281, false}} {
		x := make([]byte, 1280) // class 1280
		p.Put(x)
		got := p.Get(tt.n)
		same := unsafe.SliceData(got) == unsafe.SliceData(x)
		if same != tt.serve || len(got) != tt.n || same && cap(got) != 1280 {
			t.Errorf("slot holds a 1280-byte slice; Get(%d): len %d, cap %d, from the slot %v; want from the slot %v",
				tt.n, len(got), cap(got), same, tt.serve)
		}
		p.Discard(got) // given up, not Put: a Put would refill the slot under test
		if !same {
			p.Discard(p.Get(1280)) // empty the slot for the next case
		}
	}
}

// TestSlicesSlotSecondPlace: the P's slot holds the last two slices Put. The
// one Put before the last stays in the slot's second place, where a Get of
// its class takes it, and only the one before that goes behind, to its
// class's sync.Pool. With one place per slot, a Get of the class of the
// slice Put before the last went to the sync.Pools, a second pin
// (BenchmarkSlicesDistPaired, log-normal lengths: 1.07 times libp2p's time
// with one place, 0.98 with two).
func TestSlicesSlotSecondPlace(t *testing.T) {
	perp.OnOnePNoGC(t)
	var p Slices[byte]
	a, b, c := make([]byte, 896), make([]byte, 64), make([]byte, 4096)
	p.Put(a)
	p.Put(b) // a moves to the second place
	st := p.st.Load()
	if x := st.pools[sizeclass.Class(896)].Get(); x != nil {
		t.Fatalf("after Put(a), Put(b): a went behind to its sync.Pool; want it in the slot's second place")
	}
	p.Put(c) // b to the second place, a behind
	if x := st.pools[sizeclass.Class(64)].Get(); x != nil {
		t.Fatalf("after Put(c): b went behind to its sync.Pool; want it in the slot's second place")
	}
	for _, g := range []struct {
		n    int
		want []byte
		from string
	}{{64, b, "the slot's second place"}, {896, a, "its sync.Pool"}, {4096, c, "the slot"}} {
		got := p.Get(g.n)
		if unsafe.SliceData(got) != unsafe.SliceData(g.want) {
			t.Errorf("Get(%d): not the slice in %s", g.n, g.from)
		}
		p.Discard(got) // given up, not Put: a Put would refill the slot under test
	}
	if s := p.Stats(); s.News != 0 {
		t.Errorf("Stats = %+v; want no new slice", s)
	}
}

// TestServesAsClasses: serves, Get's test of a slice at hand of class size
// c for a length n, is the rule of getShared: c is n's class or
// a larger one below twice its size. Every length up to 1<<16 against every
// class size up to 1<<17 (it ignored a slice of class size 1 for Get(0), which
// cost Slices[int] half its speed on W1 n=0).
func TestServesAsClasses(t *testing.T) {
	for n := 0; n <= 1<<16; n++ {
		_, size := sizeclass.Fit(n)
		for k := 0; sizeclass.Size(k) <= 1<<17; k++ {
			c := sizeclass.Size(k)
			want := size <= c && c < 2*size
			if got := serves(c, n); got != want {
				t.Fatalf("serves(%d, %d) = %v, the class rule says %v", c, n, got, want)
			}
		}
	}
}

// TestSlicesCountsAcrossDrop: a call in flight as the sweep drops the state
// it loaded counts in the state's slots after the sweep read them. Its count
// is in Stats, and stays there once the collector has freed the state; the
// sweep folded the counters at the drop before, and lost it.
func TestSlicesCountsAcrossDrop(t *testing.T) {
	perp.OnOnePNoGC(t)
	s := &Slices[byte]{CountAll: true}
	s.Put(s.Get(8))
	slot := inFlight(s)
	if !perp.Collect(1) {
		t.Fatal("no sweep")
	}
	if s.st.Load() != nil {
		t.Fatal("the sweep after a collection with no Get kept the state")
	}
	slot.CountGet(true) // the call in flight counts now
	slot = nil
	if st := s.Stats(); st.Gets != 2 || st.Puts != 1 {
		t.Errorf("Stats() after the drop = %+v, want 2 gets and 1 put", st)
	}
	if !perp.Collect(3) {
		t.Fatal("no sweep")
	}
	if st := s.Stats(); st.Gets != 2 || st.Puts != 1 {
		t.Errorf("Stats() three collections after the drop = %+v, want 2 gets and 1 put", st)
	}
	if len(s.dying) != 0 {
		t.Errorf("%d states dying three collections after the drop, want none", len(s.dying))
	}
}

// inFlight returns the slot a Get in flight on s counts in: it has loaded
// s's state and its P's slot. Not inlined, so that no frame of the test
// holds the state.
//
//go:noinline
func inFlight[E any](s *Slices[E]) *perp.Base[struct{}] {
	pid := perp.Pin()
	defer perp.Unpin()
	return &s.st.Load().slots.At(pid).Base
}
