package benchmarks

import (
	"bytes"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkPaired measures the two ratios issue targets are set on, in a way
// that survives a loaded machine: bytebuf.Pool against a sync.Pool of
// *bytes.Buffer, and Slices[byte] against a sync.Pool of *[]byte, one
// goroutine, the same ops as BenchmarkBuffer and BenchmarkSlices. Each
// iteration times a batch of the baseline and a batch of ours back to back,
// in alternating order, and takes the ratio of the two; load that comes and
// goes over milliseconds hits both sides of a pair alike. The figures are
// medians over the pairs: x-base is our time over the baseline's (below 1:
// ours is faster), with x-base-p25 and x-base-p75 its quartiles, and
// base-ns/op and ours-ns/op the median batch times per op.
//
//	go test -run '^$' -bench Paired -benchtime 300x
func BenchmarkPaired(b *testing.B) {
	for _, sz := range bufferSizes {
		n := sz.n
		payload := bufferPayload[:n]
		b.Run("op=buffer/size="+sz.name, func(b *testing.B) {
			sp := sync.Pool{New: func() any { return new(bytes.Buffer) }}
			var bp bytebuf.Pool
			sum := 0
			paired(b,
				func() {
					buf := sp.Get().(*bytes.Buffer)
					buf.Write(payload)
					sum += buf.Len()
					buf.Reset()
					sp.Put(buf)
				},
				func() {
					buf := bp.Get()
					buf.Write(payload)
					sum += buf.Len()
					bp.Put(buf)
				})
			bufferSink.Add(int64(sum))
		})
	}
	for _, sz := range slicesSizes {
		n := sz.n
		b.Run("op=slices/size="+sz.name, func(b *testing.B) {
			sp := sync.Pool{New: func() any { s := make([]byte, n); return &s }}
			var sl reuse.Slices[byte]
			paired(b,
				func() {
					ps := sp.Get().(*[]byte)
					s := *ps
					s[0], s[n-1] = 1, 2
					sp.Put(ps)
				},
				func() {
					s := sl.Get(n)
					s[0], s[n-1] = 1, 2
					sl.Put(s)
				})
		})
	}
}

// paired runs one pair of batches per iteration (see BenchmarkPaired), after
// a warm-up that also lets bytebuf.Pool calibrate.
func paired(b *testing.B, base, ours func()) {
	const batch = 2000
	run := func(f func()) time.Duration {
		t := time.Now()
		for range batch {
			f()
		}
		return time.Since(t)
	}
	for range 20 {
		run(base)
		run(ours)
	}
	var tb, to []time.Duration
	var ratios []float64
	i := 0
	for b.Loop() {
		var db, do time.Duration
		if i%2 == 0 {
			db, do = run(base), run(ours)
		} else {
			do, db = run(ours), run(base)
		}
		i++
		tb, to = append(tb, db), append(to, do)
		ratios = append(ratios, float64(do)/float64(db))
	}
	if len(ratios) == 0 {
		return
	}
	slices.Sort(ratios)
	slices.Sort(tb)
	slices.Sort(to)
	k := len(ratios)
	b.ReportMetric(ratios[k/2], "x-base")
	b.ReportMetric(ratios[k/4], "x-base-p25")
	b.ReportMetric(ratios[3*k/4], "x-base-p75")
	b.ReportMetric(float64(tb[k/2])/batch, "base-ns/op")
	b.ReportMetric(float64(to[k/2])/batch, "ours-ns/op")
	b.ReportMetric(0, "ns/op") // the per-iteration time is two batches: not a figure
}
