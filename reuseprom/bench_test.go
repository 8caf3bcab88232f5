package reuseprom_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reuseprom"
	"github.com/reuse-go/reuse/reusetest"
)

// constCollector is the baseline: the collector as usually written, with
// prometheus.MustNewConstMetric building each metric and its labels anew on
// every scrape.
type constCollector struct {
	names []string
	pools []reuseprom.Source
	descs [4]*prometheus.Desc
}

func newConstCollector() *constCollector {
	c := &constCollector{}
	for i, n := range []string{"gets", "puts", "news", "drops"} {
		c.descs[i] = prometheus.NewDesc("reuse_pool_"+n+"_total", "Baseline.", []string{"pool"}, nil)
	}
	return c
}

func (c *constCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c *constCollector) Collect(ch chan<- prometheus.Metric) {
	for i, p := range c.pools {
		s := p.Stats()
		for j, v := range [4]uint64{s.Gets, s.Puts, s.News, s.Drops} {
			ch <- prometheus.MustNewConstMetric(c.descs[j], prometheus.CounterValue, float64(v), c.names[i])
		}
	}
}

// BenchmarkScrape gathers n registered pools through a prometheus.Registry,
// as a scrape does, and, with via=http, serves them through promhttp in the
// text format, as Prometheus sees it. collector=const is the baseline.
func BenchmarkScrape(b *testing.B) {
	for _, n := range []int{1, 100} {
		pools := make([]*reuse.Pool[*[]byte], n)
		for i := range pools {
			p := &reuse.Pool[*[]byte]{New: func() *[]byte { s := make([]byte, 0, 64); return &s }, CountAll: true}
			p.Put(p.Get())
			pools[i] = p
		}
		ours := reuseprom.NewCollector()
		base := newConstCollector()
		for i, p := range pools {
			name := fmt.Sprintf("pool-%03d", i)
			if err := ours.Register(name, p); err != nil {
				b.Fatal(err)
			}
			base.names = append(base.names, name)
			base.pools = append(base.pools, p)
		}
		for _, col := range []struct {
			name string
			c    prometheus.Collector
		}{{"reuseprom", ours}, {"const", base}} {
			reg := prometheus.NewRegistry()
			reg.MustRegister(col.c)
			b.Run(fmt.Sprintf("pools=%d/collector=%s/via=gather", n, col.name), func(b *testing.B) {
				defer reusetest.ReportAllocs(b)()
				for b.Loop() {
					mfs, err := reg.Gather()
					if err != nil || len(mfs) != 4 {
						b.Fatalf("Gather: %d families, %v", len(mfs), err)
					}
				}
			})
			h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{DisableCompression: true})
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			b.Run(fmt.Sprintf("pools=%d/collector=%s/via=http", n, col.name), func(b *testing.B) {
				defer reusetest.ReportAllocs(b)()
				for b.Loop() {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatalf("GET /metrics: %d", w.Code)
					}
				}
			})
		}
	}
}

var (
	sink      *[]byte
	statsSink reuse.Stats
)

// BenchmarkGetPut measures a pool's Get and Put alone (scrape=none), while
// another goroutine reads the pool's Stats every millisecond, allocating
// nothing (scrape=stats-1ms), while a Collector over it and 99 other pools
// runs its Collect every millisecond (scrape=collect-1ms), and while a
// registry holding that Collector is gathered every 10 ms
// (scrape=gather-10ms). The last two scrape far
// more often than Prometheus does (every 15 s to 1 min): what they add to
// Get/Put is the CPU and garbage of scraping on a busy machine, not a change
// to Get and Put, which the Collector never calls; it only reads the counters
// the pool keeps anyway. The allocation columns include the scraper's.
func BenchmarkGetPut(b *testing.B) {
	for _, countAll := range []bool{false, true} {
		for _, scrape := range []string{"none", "stats-1ms", "collect-1ms", "gather-10ms"} {
			b.Run(fmt.Sprintf("countall=%t/scrape=%s", countAll, scrape), func(b *testing.B) {
				p := &reuse.Pool[*[]byte]{New: func() *[]byte { s := make([]byte, 0, 64); return &s }, CountAll: countAll}
				if scrape != "none" {
					stop := startScraper(b, p, scrape)
					defer stop()
				}
				p.Put(p.Get())
				defer reusetest.ReportAllocs(b)()
				for b.Loop() {
					x := p.Get()
					sink = x
					p.Put(x)
				}
			})
		}
	}
}

// startScraper registers p and 99 other pools with a Collector and scrapes
// it periodically on another goroutine until the returned func is called.
func startScraper(b *testing.B, p reuseprom.Source, how string) (stop func()) {
	c := reuseprom.NewCollector()
	if err := c.Register("bench", p); err != nil {
		b.Fatal(err)
	}
	newPools(b, c, 99)
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	ch := make(chan prometheus.Metric, 1000)
	period := time.Millisecond
	if how == "gather-10ms" {
		period = 10 * time.Millisecond
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			switch how {
			case "stats-1ms":
				statsSink = p.Stats()
				continue
			case "gather-10ms":
				if _, err := reg.Gather(); err != nil {
					panic(err)
				}
				continue
			}
			c.Collect(ch)
			for len(ch) > 0 {
				<-ch
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
