package bytebuf

import (
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/reuse-go/reuse/internal/perp"
)

// TestClassOf: classOf(n) is the smallest class whose arrays hold n
// bytes, on every length up to 1 MiB and around every power of two.
func TestClassOf(t *testing.T) {
	check := func(n int) {
		c := classOf(n)
		if s := sizeOf(c); s < n || (c > 0 && sizeOf(c-1) >= n) {
			t.Fatalf("classOf(%d) = %d of size %d; the class below has size %d", n, c, s, sizeOf(max(c-1, 0)))
		}
	}
	for n := 1; n <= 1<<20; n++ {
		check(n)
	}
	for e := 21; e <= bits.UintSize-3; e++ {
		for _, d := range []int{-1, 0, 1} {
			check(1<<e + d)
		}
	}
	if sizeOf(initialClass) != 512 || sizeOf(minClass) != 64 {
		t.Errorf("initialClass has size %d, minClass %d; want 512 and 64", sizeOf(initialClass), sizeOf(minClass))
	}
}

// TestSampleTakesOneInFour: of a P's Puts, one in sampleEvery is a sample,
// and the others change nothing of the sizing: a sizer fed every Put, the
// others of lengths that would move the default, ends each step in the state
// of one fed the samples alone.
func TestSampleTakesOneInFour(t *testing.T) {
	// Two pools: the sizer's moves set its pool's hint, which the other's
	// first window reads.
	var p, q Pool
	r := rand.New(rand.NewPCG(1, 2))
	var puts, samples sizer
	for i := range 200000 {
		n := r.IntN(1 << (1 + r.IntN(21)))
		if i%50000 > 40000 {
			n = 100000 + r.IntN(1000) // a shift
		}
		m1 := samples.count(n, &q)
		for range sampleEvery - 1 {
			if puts.sample(1<<30, &p) {
				t.Fatalf("Put %d: a Put that is not a sample moved the default", i)
			}
		}
		m2 := puts.sample(n, &p)
		if m1 != m2 || samples.off != puts.off || samples.settled != puts.settled || samples.w != puts.w {
			t.Fatalf("Put %d of %d bytes: the samples alone give %+v (moved %v), every Put %+v (moved %v)", i, n, samples, m1, puts, m2)
		}
	}
}

// TestHintMovesMidWindow: a P whose first window is under way when another
// P moves the pool's hint goes on counting against the default it started
// with. It used to count its later samples against the hint, and read
// the earlier ones (counted against 512 bytes) as lengths four times the
// hint: at 16 Ps the defaults ran up to MaxCap on lengths of a few KiB.
func TestHintMovesMidWindow(t *testing.T) {
	var p Pool
	var s0, s1 sizer
	for range 10 {
		s1.count(4096, &p) // P 1's first window begins, no hint yet
	}
	for range firstWindow {
		s0.count(20000, &p) // P 0's first window ends: hint 32 KiB
	}
	if h := p.hint.Load(); h == 0 || sizeOf(int(h)) != 32768 {
		t.Fatalf("hint = class %d after P 0's first window of 20000 bytes, want 32768 bytes", h)
	}
	for range firstWindow - 10 {
		s1.count(4096, &p)
	}
	if d := s1.def(); sizeOf(d) != 4096 {
		t.Errorf("P 1's first window of 4096 bytes ended at %d bytes, want 4096", sizeOf(d))
	}
	// A P that starts after that takes the hint, P 1's move to 4 KiB, at
	// its first sample, and counts against it.
	var s2 sizer
	if s2.count(100000, &p); sizeOf(s2.def()) != 4096 || !s2.begun() {
		t.Errorf("a P starting after the hint: default %d bytes (state %+v), want the hint's 4096, adopted", sizeOf(s2.def()), s2)
	}
}

// TestBufferIsOneLine: a Buffer fits one 64-byte cache line, which Get,
// Write and Put touch; at 80 bytes, half of them straddled two.
func TestBufferIsOneLine(t *testing.T) {
	if s := unsafe.Sizeof(Buffer{}); s > 64 {
		t.Errorf("a Buffer is %d bytes, want at most 64", s)
	}
}

// TestSlotLayout: a slot is perp.SlotSize bytes, its counters first (Grow
// checks both at run time too).
func TestSlotLayout(t *testing.T) {
	if s := unsafe.Sizeof(slot{}); s != perp.SlotSize {
		t.Errorf("a slot is %d bytes, want %d", s, perp.SlotSize)
	}
}
