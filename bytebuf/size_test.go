package bytebuf

import (
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/reuse-go/reuse/internal/perp"
)

// TestSizeClass: sizeClass(n) is the smallest class whose arrays hold n
// bytes, on every length up to 1 MiB and around every power of two.
func TestSizeClass(t *testing.T) {
	check := func(n int) {
		c := sizeClass(n)
		if s := defSize(c); s < n || (c > 0 && defSize(c-1) >= n) {
			t.Fatalf("sizeClass(%d) = %d of size %d; the class below has size %d", n, c, s, defSize(max(c-1, 0)))
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
	if defSize(initialClass) != 512 || defSize(minClass) != 64 {
		t.Errorf("initialClass has size %d, minClass %d; want 512 and 64", defSize(initialClass), defSize(minClass))
	}
}

// observe is Put's count of a length n on sl's P, as Put and putSized
// have it written out: it reports the default class after it, and whether
// it moved.
func observe(sl *perp.Slot, n int, p *Pool) (int, bool) {
	sl.Depth += 1 << 8
	d := p.defOf(sl.Aux)
	if sl.Depth&((sampleEvery-1)<<8) != 0 {
		return d, false
	}
	if s := (sizer{sl.Aux, sl.Aux2}); s.begun() && !s.last() { // Put's inline count
		s.count(sizeClass(n), d)
		sl.Aux, sl.Aux2 = s.w0, s.w1
		return d, false
	}
	return sample(sl, n, p, d)
}

// TestObserveMatchesAdd: Put's count takes one Put in sampleEvery, and on
// the packed state decides as the plain sizer does, sample for sample.
func TestObserveMatchesAdd(t *testing.T) {
	// Two pools: the sizer's moves set its pool's hint, which the other's
	// first window reads.
	var p, q Pool
	r := rand.New(rand.NewPCG(1, 2))
	var s sizer
	var sl perp.Slot
	for i := range 200000 {
		n := r.IntN(1 << (1 + r.IntN(21)))
		if i%50000 > 40000 {
			n = 100000 + r.IntN(1000) // a shift
		}
		d1, m1 := s.add(n, &q)
		for range sampleEvery - 1 {
			if d, m := observe(&sl, 1<<30, &p); d != p.defOf(sl.Aux) || m {
				t.Fatalf("Put %d: a Put that is not a sample moved the default", i)
			}
		}
		d2, m2 := observe(&sl, n, &p)
		if d1 != d2 || m1 != m2 {
			t.Fatalf("Put %d of %d bytes: add gives (%d, %v), observe (%d, %v)", i, n, d1, m1, d2, m2)
		}
		if a, a2 := s.w0, s.w1; a != sl.Aux || a2 != sl.Aux2 {
			t.Fatalf("Put %d: states differ: %#x %#x, %#x %#x", i, a, a2, sl.Aux, sl.Aux2)
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
		s1.add(4096, &p) // P 1's first window begins, no hint yet
	}
	for range firstWindow {
		s0.add(20000, &p) // P 0's first window ends: hint 32 KiB
	}
	if h := p.hint.Load(); h == 0 || defSize(int(h)) != 32768 {
		t.Fatalf("hint = class %d after P 0's first window of 20000 bytes, want 32768 bytes", h)
	}
	var d int
	for range firstWindow - 10 {
		d, _ = s1.add(4096, &p)
	}
	if defSize(d) != 4096 {
		t.Errorf("P 1's first window of 4096 bytes ended at %d bytes, want 4096", defSize(d))
	}
	// A P that starts after that takes the hint, P 1's move to 4 KiB, at
	// its first sample, and counts against it.
	var s2 sizer
	if d, _ := s2.add(100000, &p); defSize(d) != 4096 || !s2.begun() {
		t.Errorf("a P starting after the hint: default %d bytes (state %#x), want the hint's 4096, adopted", defSize(d), s2.w0)
	}
}

// TestBufferIsOneLine: a Buffer fits one 64-byte cache line, which Get,
// Write and Put touch; at 80 bytes, half of them straddled two.
func TestBufferIsOneLine(t *testing.T) {
	if s := unsafe.Sizeof(Buffer{}); s > 64 {
		t.Errorf("a Buffer is %d bytes, want at most 64", s)
	}
}
