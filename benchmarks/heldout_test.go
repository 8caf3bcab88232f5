package benchmarks

import (
	"math"
	"math/rand/v2"
)

// heldoutWorkloads are the shapes held out from bytebuf's redesign (issue
// #32): written and committed before the design changed, and never tuned
// on afterwards. Each is a sequence of distLen lengths and the size of the
// pieces they are written in. The figures on them are reported before and
// after the change; the shapes themselves must not change.
var heldoutWorkloads = func() []untunedWorkload {
	r := rand.New(rand.NewPCG(2026, 1126))
	clamp := func(x float64) int { return max(1, min(distMax, int(x))) }
	gen := func(name string, piece int, f func(i int) int) untunedWorkload {
		l := make([]int, distLen)
		for i := range l {
			l[i] = f(i)
		}
		return untunedWorkload{distWorkload{name, l}, piece}
	}
	return []untunedWorkload{
		// Log lines and small documents built by many tiny appends: log-normal
		// lengths of median 3 KiB (sigma 0.8), written 64 bytes at a time.
		gen("heldout-tinypieces", 64, func(int) int { return clamp(3072 * math.Exp(0.8*r.NormFloat64())) }),
		// A heavy tail: Pareto lengths of minimum 4 KiB and index 1.1 (1% above
		// 260 KiB, capped at 1 MiB), written 1 KiB at a time.
		gen("heldout-heavytail", 1<<10, func(int) int { return clamp(4096 / math.Pow(1-r.Float64(), 1/1.1)) }),
		// A slow drift: the median moves from 300 B up to 40 KiB and back
		// twice over the sequence (log-normal, sigma 0.4), in 2 KiB pieces.
		gen("heldout-slowdrift", 2<<10, func(i int) int {
			ph := math.Sin(float64(i) / distLen * 2 * math.Pi * 2) // -1..1, two periods
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
		gen("heldout-json", distMax, func(int) int {
			if r.IntN(10) == 0 {
				return 8<<10 + r.IntN(32<<10)
			}
			return 100 + r.IntN(300)
		}),
	}
}()
