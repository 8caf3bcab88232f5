// Package paired times each port against its original in pairs of batches
// run back to back (internal/pairbench), so that the ratio survives a loaded
// machine, and reports it as the benchmarks module's BenchmarkPaired does.
// Only benchmarks import it.
package paired

import (
	"slices"
	"testing"

	"github.com/reuse-go/reuse/internal/pairbench"
)

// Run warms both sides up, then times one batch of base and one of ours per
// iteration of b.Loop, in alternating order, and reports the median of
// ours/base over the pairs as x-base (below 1: the port is faster), its
// quartiles as x-base-p25 and x-base-p75, and the median batch times per
// call as base-ns/op and ours-ns/op.
func Run(b *testing.B, batch int, base, ours func()) {
	for range 10 {
		for range batch {
			base()
			ours()
		}
	}
	tb, to := pairbench.Times(b, batch, true, base, ours)
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
	b.ReportMetric(float64(pairbench.Median(tb))/float64(batch), "base-ns/op")
	b.ReportMetric(float64(pairbench.Median(to))/float64(batch), "ours-ns/op")
	b.ReportMetric(0, "ns/op") // an iteration is two batches: not a figure
}
