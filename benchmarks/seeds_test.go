package benchmarks

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkDistSeeds runs bytebuf.Pool on 16 independent sequences of each
// of a few log-normal shapes, a fresh pool each, and reports the mean share
// of the ops whose Buffer grew (grows/op), and the mean and largest
// capacity/written, over the second half of 200 000 ops (4 Buffers in
// flight, written in pieces of distChunk, serial).
//
// The other distribution benchmarks each run one fixed sequence of lengths.
// A pool keeps a handful of Buffers for the whole run, and which capacity
// their home arrays end with depends on the first calibrations: one class
// up or down makes a third more or fewer of the ops grow. So one sequence
// can land a pool in either of two states and say little about a change;
// the mean over sequences does. Nothing is timed.
//
//	go test -run '^$' -bench DistSeeds -benchtime 1x
func BenchmarkDistSeeds(b *testing.B) {
	shapes := []struct {
		name          string
		median, sigma float64
	}{
		{"lognormal-small", 256, 0.6},
		{"lognormal-medium", 2048, 1},
		{"lognormal-heavy", 2048, 2},
		{"chunk-edge", 4000, 0.2},
		{"tight", 1500, 0.3},
		// Two narrow shapes in no other benchmark: records of about 700
		// bytes in one piece, and of about 12 KiB in three.
		{"records-700", 700, 0.25},
		{"records-12k", 12000, 0.15},
	}
	const seeds, ops = 16, 200000
	for _, sh := range shapes {
		b.Run("shape="+sh.name, func(b *testing.B) {
			for b.Loop() {
			}
			var grows, capw, most float64
			for seed := range uint64(seeds) {
				g, c := seedRun(seed+1, sh.median, sh.sigma, ops)
				grows += g
				capw += c
				most = max(most, c)
			}
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(grows/seeds, "grows/op")
			b.ReportMetric(capw/seeds, "cap/written")
			b.ReportMetric(most, "max-cap/written")
		})
	}
}

// seedRun runs ops log-normal lengths drawn with seed through a fresh pool
// and returns, over the second half, the share of the ops whose Buffer grew
// and the capacity at Put over the bytes written.
func seedRun(seed uint64, median, sigma float64, ops int) (grows, capW float64) {
	var p bytebuf.Pool
	s := logNormalRun(&p, rand.New(rand.NewPCG(seed, 2)), median, sigma, ops, false)
	return float64(s.grew) / float64(ops-ops/2), s.ratio()
}

// runSums are what logNormalRun counts over the second half of its ops.
type runSums struct{ grew, capacity, written int64 }

func (s runSums) ratio() float64 { return float64(s.capacity) / float64(max(s.written, 1)) }

// logNormalRun runs ops log-normal lengths drawn from r through p, with
// distInFlight Buffers in flight, each written in pieces of distChunk, and
// returns its counts over the second half. With yield, it yields the
// processor every 64 ops, so that goroutines sharing p interleave on a
// machine with few cores.
func logNormalRun(p *bytebuf.Pool, r *rand.Rand, median, sigma float64, ops int, yield bool) runSums {
	var inFlight [distInFlight]*bytebuf.Buffer
	for k := range inFlight {
		inFlight[k] = p.Get()
	}
	var s runSums
	for i := range ops {
		n := max(1, min(distMax, int(median*math.Exp(sigma*r.NormFloat64()))))
		k := i % distInFlight
		buf := inFlight[k]
		c := buf.Cap()
		for m := n; m > 0; m -= distChunk {
			buf.Write(bufferPayload[:min(m, distChunk)])
		}
		if i >= ops/2 {
			if buf.Cap() != c {
				s.grew++
			}
			s.capacity += int64(buf.Cap())
			s.written += int64(n)
		}
		p.Put(buf)
		inFlight[k] = p.Get()
		if yield && i%64 == 0 {
			runtime.Gosched()
		}
	}
	for _, buf := range inFlight {
		p.Put(buf)
	}
	return s
}
