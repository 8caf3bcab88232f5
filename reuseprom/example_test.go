package reuseprom_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reuseprom"
)

// A service registers its pools by name and serves them with the rest of its
// metrics; here the scrape is printed instead.
func ExampleCollector() {
	buffers := &reuse.Pool[*bytes.Buffer]{
		New:      func() *bytes.Buffer { return new(bytes.Buffer) },
		Reset:    (*bytes.Buffer).Reset,
		Accept:   func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 },
		CountAll: true, // also count Gets and Puts, for the hit ratio
	}
	pools := reuseprom.NewCollector()
	if err := pools.Register("buffers", buffers); err != nil {
		panic(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(pools)
	// In a server: http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	a, b := buffers.Get(), buffers.Get() // two Gets, two News: the pool was empty
	a.Grow(1 << 20)
	buffers.Put(a) // too large: dropped
	buffers.Put(b) // kept

	families, _ := reg.Gather()
	for _, f := range families {
		for _, m := range f.GetMetric() {
			fmt.Printf("%s{pool=%q} %g\n", f.GetName(), m.GetLabel()[0].GetValue(), m.GetCounter().GetValue())
		}
	}
	// Output:
	// reuse_pool_drops_total{pool="buffers"} 1
	// reuse_pool_gets_total{pool="buffers"} 2
	// reuse_pool_news_total{pool="buffers"} 2
	// reuse_pool_puts_total{pool="buffers"} 1
}

// A batch job pushes its pools' metrics once, when its work is done. A failed
// push is an error to report, not a reason to fail the job.
func ExamplePusher_Push() {
	// A stand-in Pushgateway that prints what it receives.
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.Method, r.URL.Path)
	}))
	defer gateway.Close()

	rows := &reuse.Pool[*[]byte]{New: func() *[]byte { b := make([]byte, 0, 512); return &b }}
	pools := reuseprom.NewCollector()
	if err := pools.Register("rows", rows); err != nil {
		panic(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(pools)

	// ... the job's work, using rows ...

	p := &reuseprom.Pusher{
		URL:      gateway.URL, // such as "http://pushgateway:9091"
		Job:      "nightly_import",
		Grouping: map[string]string{"shard": "3"},
	}
	if err := p.Push(context.Background(), reg); err != nil {
		fmt.Println("metrics not pushed:", err)
	}
	// Output:
	// PUT /metrics/job/nightly_import/shard/3
}

// A byte-buffer pool adds its calibrated sizes and its retention estimate as
// gauges, in bytes, beside the counters every pool reports.
func ExampleCollector_RegisterBuffers() {
	var lines bytebuf.Pool
	pools := reuseprom.NewCollector()
	if err := pools.RegisterBuffers("lines", &lines); err != nil {
		panic(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(pools)

	b := lines.Get()
	b.WriteString("hello\n")
	lines.Put(b)

	families, _ := reg.Gather()
	for _, f := range families {
		switch f.GetName() {
		case "reuse_buffer_pool_default_capacity_bytes", "reuse_buffer_pool_keep_capacity_bytes":
			fmt.Printf("%s %g\n", f.GetName(), f.GetMetric()[0].GetGauge().GetValue())
		case "reuse_pool_news_total":
			fmt.Printf("%s %g\n", f.GetName(), f.GetMetric()[0].GetCounter().GetValue())
		}
	}
	// Output:
	// reuse_buffer_pool_default_capacity_bytes 512
	// reuse_buffer_pool_keep_capacity_bytes 4.194304e+06
	// reuse_pool_news_total 1
}
