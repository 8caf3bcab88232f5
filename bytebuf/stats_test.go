package bytebuf_test

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
)

// TestHitRatioOfABatchJob is the batch job of issue 60: two 4 MiB Buffers
// written in 1 KiB pieces. Growth allocates arrays, but only a Get can hit
// or miss: News must count the Gets the pool could not serve, so that the
// hit ratio 1 - News/Gets that reuseprom documents stays in [0, 1]. It read
// 2 Gets and 17 News, a ratio of -7.5, when News counted growth too.
func TestHitRatioOfABatchJob(t *testing.T) {
	var p bytebuf.Pool
	piece := bytes.Repeat([]byte("x"), 1<<10)
	for range 2 {
		b := p.Get()
		for b.Len() < 4<<20 {
			b.Write(piece)
		}
		p.Put(b)
	}
	s := p.Stats()
	if s.Gets != 2 || s.News > s.Gets {
		t.Fatalf("Stats: %d Gets, %d News; want 2 Gets and at most 2 News", s.Gets, s.News)
	}
	if s.GrowNews == 0 {
		t.Errorf("Stats.GrowNews = 0 after growing two Buffers to 4 MiB from %d bytes; want the arrays growth made", s.DefaultCap)
	}
	if r := 1 - float64(s.News)/float64(s.Gets); r < 0 || r > 1 {
		t.Errorf("hit ratio 1 - News/Gets = %g, want it in [0, 1]", r)
	}
}

// TestStatsCountsEveryCall: Gets and Puts count every call, not batches of
// them, on every P and across the collections that replace the per-P
// counters' array; reuseprom's HELP text said "in batches (a lower bound)".
// Each goroutine ends with an odd number of calls, which a count by batches
// of any size above one would not see all of.
func TestStatsCountsEveryCall(t *testing.T) {
	var p bytebuf.Pool
	const goroutines, rounds = 8, 1001
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				b := p.Get()
				b.WriteString("x")
				if i%2 == 0 {
					p.Put(b)
				}
				if g == 0 && i%250 == 0 {
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
	s := p.Stats()
	const gets, puts = goroutines * rounds, goroutines * (rounds + 1) / 2
	if s.Gets != gets || s.Puts != puts {
		t.Errorf("Stats after %d Gets and %d Puts: Gets = %d, Puts = %d", gets, puts, s.Gets, s.Puts)
	}
}
