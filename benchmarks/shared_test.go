package benchmarks

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkDistShared measures what a bytebuf.Pool shared by two kinds of
// output does to each: two goroutines at GOMAXPROCS 2, one writing records
// (log-normal, sigma 0.5, median small, one piece) and one responses (median
// large, in pieces of distChunk), each with 4 Buffers in flight, either
// through one Pool (pools=shared) or a Pool each (pools=separate). It
// reports each goroutine's capacity/written over the second half of its
// 200 000 ops, and the total, the mean of 3 sequences. Nothing is timed.
// The package documentation's advice, one Pool per kind of output, cites it.
//
//	go test -run '^$' -bench DistShared -benchtime 1x
func BenchmarkDistShared(b *testing.B) {
	for _, c := range []struct {
		name       string
		small, big float64
	}{
		{"records=500B/responses=40KB", 500, 40000},
		{"records=300B/responses=8KB", 300, 8000},
	} {
		for _, pools := range []string{"shared", "separate"} {
			b.Run(c.name+"/pools="+pools, func(b *testing.B) {
				for b.Loop() {
				}
				const seeds = 3
				var small, big, total float64
				for seed := range uint64(seeds) {
					s, l := sharedRun(seed, c.small, c.big, pools == "separate")
					small += s.ratio()
					big += l.ratio()
					total += runSums{capacity: s.capacity + l.capacity, written: s.written + l.written}.ratio()
				}
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(small/seeds, "records-cap/written")
				b.ReportMetric(big/seeds, "responses-cap/written")
				b.ReportMetric(total/seeds, "cap/written")
			})
		}
	}
}

// sharedRun runs the records and the responses of BenchmarkDistShared on
// one Pool, or on one each, and returns their counts.
func sharedRun(seed uint64, small, big float64, separate bool) (records, responses runSums) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	pools := [2]*bytebuf.Pool{new(bytebuf.Pool), new(bytebuf.Pool)}
	if !separate {
		pools[1] = pools[0]
	}
	var res [2]runSums
	var wg sync.WaitGroup
	for g, median := range []float64{small, big} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[g] = logNormalRun(pools[g], rand.New(rand.NewPCG(seed, uint64(g))), median, 0.5, 200000, true)
		}()
	}
	wg.Wait()
	return res[0], res[1]
}
