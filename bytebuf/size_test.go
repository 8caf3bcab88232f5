package bytebuf

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
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

// TestPutSamplesAsTurn: Put counts one Put in sampleEvery on its P, and
// the ones it counts in place, without turn, change the sizing exactly as
// turn would: the P's state after every Put equals that of a sizer fed
// every fourth length through turn alone. The lengths shift now and then,
// so that windows end and defaults move.
func TestPutSamplesAsTurn(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p, q Pool // q's hint follows ref's moves as p's follows p's P's
	var ref sizer
	moves := 0
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40000 {
		n := 1 + r.IntN(1<<(1+r.IntN(14)))
		if i%10000 > 8000 {
			n = 20000 + r.IntN(1000) // a shift
		}
		b := p.Get()
		b.Write(make([]byte, n))
		p.Put(b)
		if i%sampleEvery == sampleEvery-1 && ref.turn(n, &q) {
			moves++
		}
		first := p.slots.First()
		for first == nil { // a sweep let the array go: take it back, or P 0's state
			p.slots.Grow()
			first = p.slots.First()
		}
		got := first.State
		if got.off != ref.off || got.settled != ref.settled || got.w != ref.w || p.hint.Load() != q.hint.Load() {
			t.Fatalf("Put %d of %d bytes: P 0's sizing %+v (hint %d), turn alone %+v (hint %d)", i, n, got, p.hint.Load(), ref, q.hint.Load())
		}
	}
	if moves < 4 {
		t.Fatalf("the default moved %d times; the test's lengths must move it more", moves)
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
		s1.turn(4096, &p) // P 1's first window begins, no hint yet
	}
	for range firstWindow {
		s0.turn(20000, &p) // P 0's first window ends: hint 32 KiB
	}
	if h := p.hint.Load(); h == 0 || sizeOf(int(h)) != 32768 {
		t.Fatalf("hint = class %d after P 0's first window of 20000 bytes, want 32768 bytes", h)
	}
	for range firstWindow - 10 {
		s1.turn(4096, &p)
	}
	if d := s1.def(); sizeOf(d) != 4096 {
		t.Errorf("P 1's first window of 4096 bytes ended at %d bytes, want 4096", sizeOf(d))
	}
	// A P that starts after that takes the hint, P 1's move to 4 KiB, at
	// its first sample, and counts against it.
	var s2 sizer
	if s2.turn(100000, &p); sizeOf(s2.def()) != 4096 || !s2.begun() {
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
