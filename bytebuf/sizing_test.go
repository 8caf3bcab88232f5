package bytebuf_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
	idebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

// trace runs lengths through a fresh pool on one goroutine, each written in
// pieces of at most piece bytes, and returns the capacity of every Buffer
// at its Get and at its Put. every > 0 calls collect every every ops, so
// that a run with it differs from one without only in when the collector
// empties the pool.
func trace(lengths []int, piece, every int, collect func()) (atGet, atPut []int) {
	var p bytebuf.Pool
	atGet = make([]int, len(lengths))
	atPut = make([]int, len(lengths))
	for i, n := range lengths {
		if every > 0 && i%every == every-1 {
			collect()
		}
		b := p.Get()
		atGet[i] = b.Cap()
		for m := n; m > 0; m -= piece {
			b.Write(payload[:min(m, piece)])
		}
		atPut[i] = b.Cap()
		p.Put(b)
	}
	return atGet, atPut
}

// exp2Sixteenths holds 2^(i/16) in units of 1/65536, for i in [0, 16).
var exp2Sixteenths = [16]int64{65536, 68438, 71468, 74632, 77936, 81386, 84990, 88752,
	92682, 96785, 101070, 105545, 110218, 115098, 120194, 125515}

// logNormal returns n log-normal lengths of the given median and sigma,
// from a fixed seed, in integer arithmetic only, so that they are the same
// on every platform (math.Exp's last bit is not: 386 differs from amd64,
// and a length one byte off moves a count). The normal deviate is a sum of
// twelve uniform ones (Irwin-Hall), the exponential a table of sixteenths
// of an octave.
func logNormal(seed uint64, n int, median, sigma float64) []int {
	r := rand.New(rand.NewPCG(seed, seed))
	// Sixteenths of an octave per unit of the deviate, fixed point 16.16.
	spread := int64(sigma / math.Ln2 * 16 * 65536)
	l := make([]int, n)
	for i := range l {
		var z int64 // the deviate, times 65536
		for range 12 {
			z += int64(r.IntN(1 << 16))
		}
		z -= 6 << 16
		k := z * spread >> 32 // sixteenths of an octave, floored
		e, f := k>>4, k&15
		v := int64(median) * exp2Sixteenths[f] >> 16
		if e >= 0 {
			v <<= e
		} else {
			v >>= -e
		}
		l[i] = int(max(1, min(1<<20, v)))
	}
	return l
}

// skipInDebug skips a test of where the sizing rule settles in the debug
// build: the rule is the same code there, and its hooks make a run of
// 400 000 Puts 50 times as long (34 s); TestSizingIsDeterministic checks
// that the debug build sizes alike.
func skipInDebug(t *testing.T) {
	if idebug.Enabled {
		t.Skip("the sizing rule is the same code in the debug build: see skipInDebug")
	}
}

// TestSizingIsDeterministic: the same lengths through a fresh pool on one
// goroutine give the same capacity at every Get and every Put, whether or
// not collections empty the pool meanwhile, and in every mode (under the
// race detector too, whose sync.Pool drops Buffers at random: the sizing
// does not depend on which Buffers the pool still has). The collections
// come one at a time, their sweeps running when they may, and two in a
// row, each swept before the next: the second frees the per-P array the
// first let go, as when the collector runs back to back at a low GOGC,
// and P 0's sizing must survive that too (it did not: with GOGC=25 the
// runs parted at op 2048).
func TestSizingIsDeterministic(t *testing.T) {
	oneProc(t)
	reusetest.IgnoreLeaks(t)
	n := 40000
	if idebug.Enabled && race.Enabled {
		// The debug build poisons a Buffer's whole capacity at Put and
		// checks it at Get, and under the race detector each of those is
		// an instrumented range (tsan's MemoryAccessRange took 84 % of the
		// 90 s that 40 000 lengths took). A tenth still runs three or four
		// collections of each kind per trace (at ops 996 and 1008, then
		// every 997 and 1009) and windows of both sizes; the -race run and
		// the debug run take all 40 000.
		n = 4000
	}
	lengths := logNormal(32, n, 12<<10, 1.2) // heavy-tailed, around 12 KiB
	for _, piece := range []int{1 << 10, 1 << 20} {
		g1, p1 := trace(lengths, piece, 0, nil)
		g2, p2 := trace(lengths, piece, 997, runtime.GC)
		g3, p3 := trace(lengths, piece, 1009, func() { perp.Collect(2) })
		for i := range lengths {
			if g1[i] != g2[i] || g1[i] != g3[i] || p1[i] != p2[i] || p1[i] != p3[i] {
				t.Fatalf("piece %d, op %d: capacities at Get %d, %d, %d and at Put %d, %d, %d differ between runs",
					piece, i, g1[i], g2[i], g3[i], p1[i], p2[i], p3[i])
			}
		}
	}
}

// defaults returns the default capacity after each Put of lengths through a
// fresh pool on one goroutine, each written in one piece.
func defaults(lengths []int) []int {
	var p bytebuf.Pool
	d := make([]int, len(lengths))
	for i, n := range lengths {
		b := p.Get()
		b.Write(payload[:n])
		p.Put(b)
		d[i] = p.Stats().DefaultCap
	}
	return d
}

func repeat(n, times int) []int { return slices.Repeat([]int{n}, times) }

// TestSizingFollowsShift: lengths that rise or fall by any factor move the
// default to their power of two at the end of the first whole window after
// the change. One Put in four is a sample; the first window is 32 samples
// (128 Puts), the others 240 (960 Puts).
func TestSizingFollowsShift(t *testing.T) {
	oneProc(t)
	// 1000 bytes: the first window ends at Put 127 with every sample above
	// the initial 512, and the default jumps to 1024. 20000 bytes from Put
	// 1088, when a window has just ended: the next one ends at Put 2047,
	// every sample above, and the default jumps to 32768. 300 bytes from
	// Put 3008: the window ending at Put 3967 has every sample within
	// half, and the default falls to 512 at once.
	l := slices.Concat(repeat(1000, 1088), repeat(20000, 1920), repeat(300, 960))
	d := defaults(l)
	for _, c := range []struct{ at, want int }{
		{126, 512}, {127, 1024}, {2046, 1024}, {2047, 32768},
		{3966, 32768}, {3967, 512},
	} {
		if d[c.at] != c.want {
			t.Errorf("after Put %d: DefaultCap = %d, want %d", c.at, d[c.at], c.want)
		}
	}
}

// TestGetHandsOutTheDefault: with Buffers in flight, so that the P's stack
// holds several when the default moves, every Get hands out the default
// capacity, never one of the default before the move.
func TestGetHandsOutTheDefault(t *testing.T) {
	oneProc(t)
	var p bytebuf.Pool
	l := slices.Concat(repeat(1000, 1088), repeat(20000, 1920), repeat(300, 1920), repeat(5000, 1920))
	var inFlight [5]*bytebuf.Buffer
	for k := range inFlight {
		inFlight[k] = p.Get()
	}
	for i, n := range l {
		k := i % len(inFlight)
		inFlight[k].Write(payload[:n])
		p.Put(inFlight[k])
		inFlight[k] = p.Get()
		if c, d := inFlight[k].Cap(), p.Stats().DefaultCap; c != d {
			t.Fatalf("Get after Put %d: capacity %d, DefaultCap %d", i, c, d)
		}
	}
	if m := p.Stats().Calibrations; m != 4 {
		t.Errorf("%d moves of the default, want 4", m)
	}
}

// share returns the fraction of lengths in (lo, hi].
func share(lengths []int, lo, hi int) float64 {
	n := 0
	for _, v := range lengths {
		if v > lo && v <= hi {
			n++
		}
	}
	return float64(n) / float64(len(lengths))
}

// TestSizingSettles: on lengths that do not change, the default settles
// where the package documentation says, and stays there: fewer than 3/16
// of the lengths above it, and more than 1/16 above half of it; below
// 4 KiB, fewer than 1/32 between it and twice it, and up to 4 KiB some
// above half of it.
func TestSizingSettles(t *testing.T) {
	skipInDebug(t)
	oneProc(t)
	for _, c := range []struct {
		median, sigma float64
		want          int // the settled default, exact (the rule is deterministic)
		changes       int // its moves after the first 5000 Puts
	}{
		{2048, 0.5, 4096, 0},
		{2048, 1.0, 8192, 0},
		{300, 0.3, 1024, 0}, // 512 before the rule for small defaults: 3% grew
		{16 << 10, 0.8, 65536, 0},
	} {
		l := logNormal(7, 100000, c.median, c.sigma)
		d := defaults(l)
		changes := 0
		for i := 5001; i < len(d); i++ {
			if d[i] != d[i-1] {
				changes++
			}
		}
		got := d[len(d)-1]
		above, near, half := share(l, got, math.MaxInt), share(l, got, 2*got), share(l, got/2, math.MaxInt)
		t.Logf("median %g sigma %g: default %d, %d moves after the first 5000 Puts; above it %.3f, up to twice it %.3f, above half %.3f",
			c.median, c.sigma, got, changes, above, near, half)
		if got != c.want || changes != c.changes {
			t.Errorf("median %g sigma %g: settled at %d with %d moves, want %d with %d", c.median, c.sigma, got, changes, c.want, c.changes)
		}
		small := got < 4096 // rises more readily, and falls at 4 KiB too only when all fit half
		if above >= 3.0/16 || small && near >= 1.0/32 || got > 4096 && half <= 1.0/16 || half == 0 {
			t.Errorf("median %g sigma %g: default %d is not where the rule settles", c.median, c.sigma, got)
		}
	}
}

// TestSizingIgnoresAFarTail: records of about 200 bytes with 12% of them
// near 32 KiB, as small API responses with a few large ones. The default
// settles at 512 (fewer than 3/16 exceed it) and stays: the four-fold rise
// needs as many to exceed the default as the two-fold one, and an eighth
// beyond twice it as well. When an eighth beyond twice it sufficed, 12% far
// above crossed it in about half the windows, and the default wandered
// between 2 and 32 KiB (found on the held-out heldout-json, 10% at 8-40 KiB).
func TestSizingIgnoresAFarTail(t *testing.T) {
	skipInDebug(t)
	oneProc(t)
	small, large := logNormal(11, 100000, 200, 0.3), logNormal(12, 100000, 32<<10, 0.3)
	r := rand.New(rand.NewPCG(13, 13))
	l := make([]int, len(small))
	for i := range l {
		if l[i] = small[i]; r.IntN(100) < 12 {
			l[i] = large[i]
		}
	}
	d := defaults(l)
	moves := 0
	for i := 5001; i < len(d); i++ {
		if d[i] != d[i-1] {
			moves++
		}
	}
	if got := d[len(d)-1]; got != 512 || moves != 0 {
		t.Errorf("default %d at the end, %d moves after the first 5000 Puts; want 512 and 0", got, moves)
	}
}

// TestSizingFallsFast: lengths that fall 16-fold bring the default down to
// theirs at the end of the first whole window after the fall: the 5000 Puts
// before it end 72 into a window (128 + 5*960 + 72), whose 888 last Puts
// hold too few samples of the new lengths to move it, and the next 960 do.
func TestSizingFallsFast(t *testing.T) {
	oneProc(t)
	high := logNormal(3, 5000, 16<<10, 0.3)
	low := logNormal(4, 5000, 1<<10, 0.3)
	d := defaults(slices.Concat(high, low))
	before := d[len(high)-1]
	at := -1
	for i := len(high); i < len(d); i++ {
		if d[i] <= before/8 {
			at = i - len(high) + 1
			break
		}
	}
	t.Logf("default %d before the fall, %d after; reached an eighth after %d Puts", before, d[len(d)-1], at)
	if at != 888+960 || d[len(d)-1] != 2048 {
		t.Errorf("fall: an eighth of the default after %d Puts, default %d at the end; want 1848 Puts and 2048", at, d[len(d)-1])
	}
}

// TestGrowthInPieces: a Buffer written in small pieces grows through powers
// of two, to at least twice what it holds each time, so that each byte is
// copied a bounded number of times, but past twice its capacity only up to
// the largest size a growth of the pool reached; one written empty in a
// single piece grows to the power of two that holds it, and copies nothing.
func TestGrowthInPieces(t *testing.T) {
	reusetest.KeepPooled(t)
	var p bytebuf.Pool
	pieces := func() []int {
		b := p.Get() // 512 bytes: the initial default
		defer p.Put(b)
		var caps []int
		for range 100 {
			b.Write(payload[:100])
			if c := b.Cap(); len(caps) == 0 || caps[len(caps)-1] != c {
				caps = append(caps, c)
			}
		}
		return caps
	}
	// Each growth holds what the Buffer holds plus what it needs (1124
	// bytes at 512, 4196 at 2048, 16300 at 8192), but at most twice its
	// capacity past the largest size a growth of the pool reached: in a
	// fresh pool, none, so the Buffer doubles.
	if caps, want := pieces(), []int{512, 1024, 2048, 4096, 8192, 16384}; !slices.Equal(caps, want) {
		t.Errorf("10000 bytes in pieces of 100, fresh pool: capacities %v, want %v", caps, want)
	}
	// Now that a growth reached 16384, up to it the Buffer grows by what it
	// holds plus what it needs.
	if caps, want := pieces(), []int{512, 2048, 8192, 16384}; !slices.Equal(caps, want) {
		t.Errorf("10000 bytes in pieces of 100, again: capacities %v, want %v", caps, want)
	}
	b := p.Get()
	b.Write(payload[:5000])
	if b.Cap() != 8192 {
		t.Errorf("5000 bytes in one piece into an empty Buffer: Cap = %d, want 8192", b.Cap())
	}
	// A length just past a full Buffer's capacity, above what any growth
	// reached: twice the capacity (what it holds plus what it needs,
	// 16384 + 16385, would take 64 KiB).
	b.Write(payload[:16384-5000])
	b.Write(payload[:1])
	if b.Cap() != 32768 {
		t.Errorf("16385 bytes: Cap = %d, want 32768", b.Cap())
	}
	p.Put(b)
}

// TestGrowthReusesArrays: in steady state, growth takes its arrays from the
// pool and gives the old ones back, so no Buffer is made.
func TestGrowthReusesArrays(t *testing.T) {
	oneProc(t)
	reusetest.KeepPooled(t)
	var p bytebuf.Pool
	l := logNormal(9, 20000, 12<<10, 1.2)
	run := func() {
		for _, n := range l {
			b := p.Get()
			for m := n; m > 0; m -= 1 << 10 {
				b.Write(payload[:min(m, 1<<10)])
			}
			p.Put(b)
		}
	}
	run()
	made := func() uint64 { s := p.Stats(); return s.News + s.GrowNews }
	news := made()
	run()
	if d := made() - news; d != 0 {
		t.Errorf("second pass over the same lengths made %d Buffers and arrays, want 0", d)
	}
}
