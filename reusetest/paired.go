package reusetest

import (
	"slices"
	"testing"
	"time"
)

// Paired measures ours against base, the code it replaces, in a way that
// survives a loaded machine, for benchmarks whose figure is a ratio: after a
// warm-up, each iteration of b.Loop times batch calls of base and batch calls
// of ours back to back, in alternating order, and takes the ratio of the two
// times. Load that comes and goes over milliseconds (another job, a
// collection) hits both batches of a pair alike, and the median leaves out
// the pairs it hit one side of. It reports:
//
//   - x-base: the median of ours/base over the pairs (below 1: ours is
//     faster), with its quartiles as x-base-p25 and x-base-p75;
//   - base-ns/op and ours-ns/op: the median batch times per call;
//   - ns/op as 0: an iteration is two batches, not a figure to read.
//
// Run it with a fixed iteration count, e.g. -benchtime 300x. batch must be
// positive; a batch should last well over the timer's resolution (tens of
// microseconds).
func Paired(b *testing.B, batch int, base, ours func()) {
	if batch <= 0 {
		panic("reusetest: Paired: batch must be positive")
	}
	for range 20 { // warm-up: caches, pools and their calibration
		for range batch {
			base()
			ours()
		}
	}
	run := func(f func()) time.Duration {
		t := time.Now()
		for range batch {
			f()
		}
		return time.Since(t)
	}
	var tb, to []time.Duration
	for i := 0; b.Loop(); i++ {
		var db, do time.Duration
		if i%2 == 1 {
			do, db = run(ours), run(base)
		} else {
			db, do = run(base), run(ours)
		}
		tb, to = append(tb, db), append(to, do)
	}
	if len(tb) == 0 {
		return
	}
	ratios := make([]float64, len(tb))
	for i := range tb {
		ratios[i] = float64(to[i]) / float64(tb[i])
	}
	slices.Sort(ratios)
	k := len(ratios)
	b.ReportMetric(ratios[k/2], "x-base")
	b.ReportMetric(ratios[k/4], "x-base-p25")
	b.ReportMetric(ratios[3*k/4], "x-base-p75")
	b.ReportMetric(float64(median(tb))/float64(batch), "base-ns/op")
	b.ReportMetric(float64(median(to))/float64(batch), "ours-ns/op")
	b.ReportMetric(0, "ns/op")
}

// median returns the median of d (the upper one for an even length), without
// reordering d. d must not be empty.
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
