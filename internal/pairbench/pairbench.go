// Package pairbench times a baseline and a pooled implementation in pairs of
// batches run back to back, for benchmarks whose ratio must survive a loaded
// machine: load that comes and goes over milliseconds hits both batches of a
// pair alike, and medians leave out the batches a preemption or a collection
// slowed down. Only benchmarks import it.
package pairbench

import (
	"cmp"
	"slices"
	"testing"
	"time"
)

// Times runs one pair of batches per iteration of b.Loop, batch calls of
// base and batch calls of ours, and returns the time of each batch, in
// iteration order. With alternate, odd iterations run ours first, so that
// neither side always runs in the other's wake.
func Times(b *testing.B, batch int, alternate bool, base, ours func()) (tb, to []time.Duration) {
	run := func(f func()) time.Duration {
		t := time.Now()
		for range batch {
			f()
		}
		return time.Since(t)
	}
	for i := 0; b.Loop(); i++ {
		var db, do time.Duration
		if alternate && i%2 == 1 {
			do, db = run(ours), run(base)
		} else {
			db, do = run(base), run(ours)
		}
		tb, to = append(tb, db), append(to, do)
	}
	return tb, to
}

// ReportSpeedup reports the medians of the batch times per call as
// base-ns/op and pool-ns/op, their ratio as speedup (above 1: ours is
// faster), and the ratio of the sums, which counts every batch, collections
// and preemptions alike, as speedup-total.
func ReportSpeedup(b *testing.B, batch int, tb, to []time.Duration) {
	if len(tb) == 0 {
		return
	}
	mb, mp := Median(tb)/time.Duration(batch), Median(to)/time.Duration(batch)
	b.ReportMetric(float64(mb.Nanoseconds()), "base-ns/op")
	b.ReportMetric(float64(mp.Nanoseconds()), "pool-ns/op")
	b.ReportMetric(float64(mb)/float64(mp), "speedup")
	var sb, so time.Duration
	for i := range tb {
		sb, so = sb+tb[i], so+to[i]
	}
	b.ReportMetric(float64(sb)/float64(so), "speedup-total")
}

// Median returns the median of d (the upper one for an even length), without
// reordering d. d must not be empty.
func Median[T cmp.Ordered](d []T) T {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
