package bytebuf

import (
	"math/rand/v2"
	"testing"

	"github.com/reuse-go/reuse/internal/perp"
)

// TestClassMath checks classOf and classSize against each other on every
// length up to 1 MiB and around every power of two above.
func TestClassMath(t *testing.T) {
	check := func(n int) {
		c := classOf(n)
		if s := classSize(c); s < n || (c > 0 && classSize(c-1) >= n) {
			t.Fatalf("classOf(%d) = %d of size %d; the class below has size %d", n, c, s, classSize(max(c-1, 0)))
		}
	}
	for n := 1; n <= 1<<20; n++ {
		check(n)
	}
	for e := 21; e <= 30; e++ {
		for _, d := range []int{-1, 0, 1} {
			check(1<<e + d)
		}
	}
	if classSize(initialClass) != 512 || classSize(minClass) != 64 {
		t.Errorf("initialClass has size %d, minClass %d; want 512 and 64", classSize(initialClass), classSize(minClass))
	}
}

// TestObserveMatchesAdd: Put's observe counts one Put in sampleEvery, and
// on the packed state decides as the plain sizer does, sample for sample.
func TestObserveMatchesAdd(t *testing.T) {
	var p Pool
	r := rand.New(rand.NewPCG(1, 2))
	var s sizer
	var sl perp.Slot
	for i := range 200000 {
		n := r.IntN(1 << (1 + r.IntN(21)))
		if i%50000 > 40000 {
			n = 100000 + r.IntN(1000) // a shift
		}
		d1, m1 := s.add(n, &p)
		for range sampleEvery - 1 {
			if d, m := observe(&sl, 1<<30, &p); d != sizerDef(sl.Aux) || m {
				t.Fatalf("Put %d: a Put that is not a sample moved the default", i)
			}
		}
		d2, m2 := observe(&sl, n, &p)
		if d1 != d2 || m1 != m2 {
			t.Fatalf("Put %d of %d bytes: add gives (%d, %v), observe (%d, %v)", i, n, d1, m1, d2, m2)
		}
		if a, a2 := s.pack(); a != sl.Aux || a2 != sl.Aux2 {
			t.Fatalf("Put %d: states differ: %#x %#x, %#x %#x", i, a, a2, sl.Aux, sl.Aux2)
		}
	}
}
