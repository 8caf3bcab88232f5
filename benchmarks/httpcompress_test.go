package benchmarks

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzhttp/writer"
	"github.com/klauspost/compress/gzhttp/writer/gzkp"
	"github.com/klauspost/compress/gzhttp/writer/gzstd"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/reusetest"
)

// jsonBody returns about n bytes of JSON shaped like an API response.
func jsonBody(n int) []byte {
	type item struct {
		ID      int      `json:"id"`
		Name    string   `json:"name"`
		Email   string   `json:"email"`
		Active  bool     `json:"active"`
		Score   float64  `json:"score"`
		Tags    []string `json:"tags"`
		Created string   `json:"created"`
	}
	var items []item
	var out []byte
	for i := 0; len(out) < n; i++ {
		items = append(items, item{
			ID: 1000 + i*7, Name: "user" + strconv.Itoa(i*31%997), Email: "user" + strconv.Itoa(i) + "@example.com",
			Active: i%3 != 0, Score: float64(i*37%1000) / 10, Tags: []string{"alpha", "beta", "t" + strconv.Itoa(i%13)},
			Created: time.Unix(1.7e9+int64(i)*3607, 0).UTC().Format(time.RFC3339),
		})
		out, _ = json.Marshal(items)
	}
	return out[: n-1 : n-1]
}

// impl is one compressing middleware under test.
type impl struct {
	name string
	mw   func(http.Handler) http.Handler
}

// impls returns, for a backend, gzhttp and ours at the same level with the
// same deflate implementation.
func impls(tb testing.TB, backend string, level int) []impl {
	tb.Helper()
	var g func(http.Handler) http.HandlerFunc
	var ours func(http.Handler) http.Handler
	var err error
	switch backend {
	case "klauspost":
		g, err = gzhttp.NewWrapper(gzhttp.CompressionLevel(level), gzhttp.Implementation(gzkpFactory))
		if err == nil {
			ours, err = khttp.New(httpcompress.Config{Level: level})
		}
	case "stdlib":
		g, err = gzhttp.NewWrapper(gzhttp.CompressionLevel(level), gzhttp.Implementation(gzstdFactory))
		if err == nil {
			ours, err = httpcompress.New(httpcompress.Config{Level: level})
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	oursName := map[string]string{"klauspost": "khttp", "stdlib": "httpcompress"}[backend]
	return []impl{
		{"gzhttp", func(h http.Handler) http.Handler { return g(h) }},
		{oursName, ours},
	}
}

var (
	gzkpFactory  = writer.GzipWriterFactory{Levels: gzkp.Levels, New: gzkp.NewWriter}
	gzstdFactory = writer.GzipWriterFactory{Levels: gzstd.Levels, New: gzstd.NewWriter}
)

// discardWriter is a ResponseWriter that keeps only the byte count, so a
// benchmark measures the middleware, not a recorder.
type discardWriter struct {
	h    http.Header
	n    int
	code int
}

func (w *discardWriter) Header() http.Header { return w.h }

func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

func (w *discardWriter) WriteHeader(code int) { w.code = code }

func (w *discardWriter) Flush() {}

var sinkInt int

// BenchmarkHTTPCompress: server-side cost of one compressed response, gzhttp
// against ours at the same level with the same deflate implementation.
// bytes/resp is the compressed size.
func BenchmarkHTTPCompress(b *testing.B) {
	for _, bc := range []struct {
		backend string
		level   int
	}{{"klauspost", 5}, {"klauspost", 1}, {"stdlib", 6}, {"stdlib", 1}} {
		for _, size := range []int{2 << 10, 64 << 10} {
			body := jsonBody(size)
			for _, im := range impls(b, bc.backend, bc.level) {
				name := fmt.Sprintf("backend=%s/level=%d/body=%dKiB/impl=%s", bc.backend, bc.level, size>>10, im.name)
				b.Run(name, func(b *testing.B) {
					h := im.mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.Write(body)
					}))
					req, _ := http.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", "gzip, deflate, br")
					w := &discardWriter{h: make(http.Header)}
					b.ReportAllocs()
					b.SetBytes(int64(len(body)))
					for b.Loop() {
						clear(w.h)
						w.n = 0
						h.ServeHTTP(w, req)
					}
					if w.h.Get("Content-Encoding") != "gzip" {
						b.Fatalf("not compressed: %v", w.h)
					}
					sinkInt = w.n
					b.ReportMetric(float64(w.n), "bytes/resp")
				})
			}
		}
	}
}

// BenchmarkHTTPCompressPaired: the time ratio of BenchmarkHTTPCompress,
// ours over gzhttp, from pairs of batches run back to back
// (reusetest.Paired), which a loaded machine skews far less than sibling
// sub-benchmarks run seconds apart. x-base below 1 means ours is faster.
// Run it with a fixed count: -benchtime 100x.
func BenchmarkHTTPCompressPaired(b *testing.B) {
	for _, bc := range []struct {
		backend string
		level   int
	}{{"klauspost", 5}, {"klauspost", 1}, {"stdlib", 6}, {"stdlib", 1}} {
		for _, size := range []int{2 << 10, 64 << 10} {
			body := jsonBody(size)
			b.Run(fmt.Sprintf("backend=%s/level=%d/body=%dKiB", bc.backend, bc.level, size>>10), func(b *testing.B) {
				var calls []func()
				for _, im := range impls(b, bc.backend, bc.level) {
					h := im.mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.Write(body)
					}))
					req, _ := http.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", "gzip, deflate, br")
					w := &discardWriter{h: make(http.Header)}
					calls = append(calls, func() {
						clear(w.h)
						h.ServeHTTP(w, req)
					})
				}
				reusetest.Paired(b, max(1, (256<<10)/size), calls[0], calls[1])
			})
		}
	}
}

// BenchmarkHTTPLoopback: requests/s and heap allocated per request over
// loopback, with 64 keep-alive clients in the same process, for a mix of 2
// KiB and 64 KiB JSON bodies. impl=none is the server and clients without
// compression: what a middleware adds is its figure minus none's. The
// heap figures come from runtime.MemStats over the whole run, so they
// include the GCs that empty the pools: the cost of pooled writers lost to
// collections shows here.
func BenchmarkHTTPLoopback(b *testing.B) {
	small, large := jsonBody(2<<10), jsonBody(64<<10)
	for _, bc := range []struct {
		backend string
		level   int
	}{{"klauspost", 5}, {"stdlib", 6}} {
		all := append([]impl{{"none", func(h http.Handler) http.Handler { return h }}}, impls(b, bc.backend, bc.level)...)
		for _, im := range all {
			b.Run(fmt.Sprintf("backend=%s/level=%d/impl=%s", bc.backend, bc.level, im.name), func(b *testing.B) {
				h := im.mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					if r.URL.Path == "/large" {
						w.Write(large)
					} else {
						w.Write(small)
					}
				}))
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				srv := &http.Server{Handler: h}
				go srv.Serve(ln)
				defer srv.Close()
				tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 64}
				defer tr.CloseIdleConnections()
				client := &http.Client{Transport: tr}
				base := "http://" + ln.Addr().String()
				var count atomic.Int64
				var failed atomic.Value
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				b.ResetTimer()
				start := time.Now()
				b.SetParallelism(32) // 64 clients on 2 Ps
				b.RunParallel(func(pb *testing.PB) {
					buf := make([]byte, 32<<10)
					for i := 0; pb.Next(); i++ {
						path := "/small"
						if i%8 == 0 {
							path = "/large"
						}
						req, _ := http.NewRequest("GET", base+path, nil)
						req.Header.Set("Accept-Encoding", "gzip")
						resp, err := client.Do(req)
						if err != nil {
							failed.Store(err)
							return
						}
						io.CopyBuffer(io.Discard, resp.Body, buf)
						resp.Body.Close()
						count.Add(1)
					}
				})
				elapsed := time.Since(start)
				b.StopTimer()
				runtime.ReadMemStats(&after)
				if err, ok := failed.Load().(error); ok {
					b.Fatal(err)
				}
				n := float64(count.Load())
				b.ReportMetric(n/elapsed.Seconds(), "req/s")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "heapB/req")
				b.ReportMetric(float64(after.NumGC-before.NumGC)/n*1000, "GCs/kreq")
			})
		}
	}
}

// TestHTTPCompressSameOutput: the implementations compared produce streams
// that decode to the same body, so the benchmark compares like with like.
func TestHTTPCompressSameOutput(t *testing.T) {
	body := jsonBody(64 << 10)
	for _, backend := range []string{"klauspost", "stdlib"} {
		for _, im := range impls(t, backend, 1) {
			h := im.mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
			var buf bytes.Buffer
			w := &bufWriter{h: make(http.Header), buf: &buf}
			req, _ := http.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			h.ServeHTTP(w, req)
			zr, err := gzip.NewReader(&buf)
			if err != nil {
				t.Fatalf("%s/%s: %v", backend, im.name, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%s/%s: decoded %d bytes, err %v", backend, im.name, len(got), err)
			}
		}
	}
}

type bufWriter struct {
	h   http.Header
	buf *bytes.Buffer
}

func (w *bufWriter) Header() http.Header         { return w.h }
func (w *bufWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *bufWriter) WriteHeader(int)             {}
