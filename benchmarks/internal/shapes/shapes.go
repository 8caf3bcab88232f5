// Package shapes holds the sequences of lengths that the benchmarks write
// into pooled buffers: the distributions suite, the untuned shapes and the
// shapes held out from bytebuf's redesign (issue #32). Each is a fixed
// pseudo-random sequence; the tests of this package pin every sequence by
// its checksum, so that a figure measured on a shape today is measured on
// the same lengths tomorrow.
package shapes

import (
	"math"
	"math/rand/v2"
)

const (
	// Len is the number of lengths in every shape; a benchmark cycles
	// through them.
	Len = 1 << 16
	// Max is the largest length of any shape.
	Max = 1 << 20
	// Piece is the size of the pieces the suite's lengths are written in.
	Piece = 4 << 10
)

// A Shape is a sequence of Len lengths, and the most bytes one write adds
// when a length is written (a length is written in pieces of Piece bytes and
// a last, shorter one).
type Shape struct {
	Name    string
	Piece   int
	Lengths []int
}

func clamp(x float64) int { return max(1, min(Max, int(x))) }

// gen returns the shape of Len lengths f(0), f(1), ... .
func gen(name string, piece int, f func(i int) int) Shape {
	l := make([]int, Len)
	for i := range l {
		l[i] = f(i)
	}
	return Shape{name, piece, l}
}

// Suite returns the shapes of the distributions suite, each written in
// pieces of Piece bytes.
func Suite() []Shape {
	r := rand.New(rand.NewPCG(14, 14))
	logNormal := func(median, sigma float64) func(i int) int {
		return func(int) int { return clamp(median * math.Exp(sigma*r.NormFloat64())) }
	}
	return []Shape{
		// Small records: median 256 B, 95% within 90-700 B.
		gen("lognormal-small", Piece, logNormal(256, 0.6)),
		// Responses: median 2 KiB, a long tail (1% above 20 KiB).
		gen("lognormal-medium", Piece, logNormal(2048, 1.0)),
		// Heavy-tailed: median 2 KiB, 1% above 200 KiB.
		gen("lognormal-heavy", Piece, logNormal(2048, 2.0)),
		// 99% 200 B, 1% 256 KiB.
		gen("bimodal", Piece, func(int) int {
			if r.IntN(100) == 0 {
				return 256 << 10
			}
			return 200
		}),
		// Pareto with minimum 512 B and index 1.2: 1% above 24 KiB.
		gen("pareto", Piece, func(int) int { return clamp(512 / math.Pow(1-r.Float64(), 1/1.2)) }),
		// Log-normal (sigma 0.5) whose median drifts from 256 B up to
		// 64 KiB and back down over the sequence.
		gen("drift", Piece, func(i int) int {
			ph := float64(i) / Len * 2
			if ph > 1 {
				ph = 2 - ph
			}
			return clamp(256 * math.Exp2(8*ph) * math.Exp(0.5*r.NormFloat64()))
		}),
		// Lengths around the size of the pieces they are written in
		// (Piece): log-normal, median 4000 B, sigma 0.2, so that 45% of
		// them take a second piece. Added after the suite's tuning, as a
		// shape it was not tuned for.
		gen("chunk-edge", Piece, logNormal(4000, 0.2)),
		// Records of similar sizes, each written in one piece: log-normal,
		// median 1500 B, sigma 0.3. Added with the rule for narrow lengths
		// (a default that holds 80% of them), which was tuned on
		// chunk-edge, as a narrow shape it was not tuned for.
		gen("tight", Piece, logNormal(1500, 0.3)),
	}
}

// Untuned returns the shapes that the growth rules of bytebuf were not
// tuned on when they were written: the percentiles that the growth plan
// replaced left more capacity than 1.5 times the bytes written on most of
// them. They were the check of the plan's weight of copies against capacity
// (0.35), so they are no longer unseen by it.
func Untuned() []Shape {
	r := rand.New(rand.NewPCG(77, 78))
	logNormal := func(median, sigma float64) func() int {
		return func() int { return clamp(median * math.Exp(sigma*r.NormFloat64())) }
	}
	in := func(f func() int) func(int) int { return func(int) int { return f() } }
	return []Shape{
		gen("uniform-64K", 4<<10, func(int) int { return 1 + r.IntN(64<<10) }),
		gen("lognormal-16K-narrow", 4<<10, in(logNormal(16<<10, 0.5))),
		// Two kinds of requests through one pool.
		gen("mix-300-32K", 4<<10, func(int) int {
			if r.IntN(2) == 0 {
				return logNormal(300, 0.5)()
			}
			return logNormal(32<<10, 0.7)()
		}),
		gen("lognormal-8K-pieces-1K", 1<<10, in(logNormal(8<<10, 1.5))),
		gen("lognormal-64K-pieces-16K", 16<<10, in(logNormal(64<<10, 1))),
		gen("lognormal-600-whole", Max, in(logNormal(600, 0.8))),
		gen("exponential-4K-whole", Max, func(int) int { return clamp(4096 * r.ExpFloat64()) }),
		gen("lognormal-2K-pieces-512", 512, in(logNormal(2048, 1))),
	}
}

// Heldout returns the shapes held out from bytebuf's redesign (issue #32):
// written and committed before the design changed, and never tuned on
// afterwards. The figures on them are reported before and after the change;
// the shapes themselves must not change.
func Heldout() []Shape {
	r := rand.New(rand.NewPCG(2026, 1126))
	return []Shape{
		// Log lines and small documents built by many tiny appends: log-normal
		// lengths of median 3 KiB (sigma 0.8), written 64 bytes at a time.
		gen("heldout-tinypieces", 64, func(int) int { return clamp(3072 * math.Exp(0.8*r.NormFloat64())) }),
		// A heavy tail: Pareto lengths of minimum 4 KiB and index 1.1 (1% above
		// 260 KiB, capped at 1 MiB), written 1 KiB at a time.
		gen("heldout-heavytail", 1<<10, func(int) int { return clamp(4096 / math.Pow(1-r.Float64(), 1/1.1)) }),
		// A slow drift: the median moves from 300 B up to 40 KiB and back
		// twice over the sequence (log-normal, sigma 0.4), in 2 KiB pieces.
		gen("heldout-slowdrift", 2<<10, func(i int) int {
			ph := math.Sin(float64(i) / Len * 2 * math.Pi * 2) // -1..1, two periods
			median := 300 * math.Pow(40<<10/300.0, (ph+1)/2)
			return clamp(median * math.Exp(0.4*r.NormFloat64()))
		}),
		// Abrupt regimes: blocks of 4096 lengths alternate between about 1 KiB
		// and about 64 KiB (log-normal, sigma 0.3), written 4 KiB at a time.
		gen("heldout-regimes", 4<<10, func(i int) int {
			if (i/4096)%2 == 0 {
				return clamp(1024 * math.Exp(0.3*r.NormFloat64()))
			}
			return clamp(64 << 10 * math.Exp(0.3*r.NormFloat64()))
		}),
		// JSON-like responses: 90% between 100 and 400 bytes, 10% between 8
		// and 40 KiB, written in one piece each.
		gen("heldout-json", Max, func(int) int {
			if r.IntN(10) == 0 {
				return 8<<10 + r.IntN(32<<10)
			}
			return 100 + r.IntN(300)
		}),
	}
}

// All returns the suite, the untuned and the held-out shapes, in that
// order.
func All() []Shape {
	return append(append(Suite(), Untuned()...), Heldout()...)
}
