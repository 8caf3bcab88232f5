// Command server is an HTTP server that builds its responses with pooled
// memory and exposes the pools' counters to Prometheus at /metrics.
//
// GET /sum?n=100 adds the numbers 1..n in a pooled scratch slice and writes
// the answer through a pooled byte buffer. Prometheus scrapes /metrics:
//
//	reuse_pool_gets_total{pool="scratch"}                      requests served
//	reuse_pool_news_total{pool="scratch"}                      scratch slices created
//	reuse_buffer_pool_default_capacity_bytes{pool="responses"} calibrated buffer size
//
// Usage:
//
//	server [-addr 127.0.0.1:8080]
//
// The address defaults to the loopback interface; pass -addr :8080 to listen
// on every interface, or -addr 127.0.0.1:0 for any free port (the chosen
// address is printed).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reuseprom"
)

// maxN bounds /sum's n, and so the scratch slices the pool keeps.
const maxN = 1 << 16

// server holds the pools and the registry that exports them.
type server struct {
	// scratch holds slices for /sum; CountAll makes its gets and puts show
	// in /metrics, so that the hit ratio can be computed.
	scratch reuse.Pool[*[]int]
	// responses holds the buffers responses are built in.
	responses bytebuf.Pool
	// registry holds the pools' collector and the Go runtime's metrics.
	registry *prometheus.Registry
}

func newServer() (*server, error) {
	s := &server{registry: prometheus.NewRegistry()}
	s.scratch = reuse.Pool[*[]int]{
		New:      func() *[]int { b := make([]int, 0, 1024); return &b },
		Reset:    func(b *[]int) { *b = (*b)[:0] },
		Accept:   func(b *[]int) bool { return cap(*b) <= maxN },
		CountAll: true,
	}
	pools := reuseprom.NewCollector()
	if err := pools.Register("scratch", &s.scratch); err != nil {
		return nil, err
	}
	if err := pools.RegisterBuffers("responses", &s.responses); err != nil {
		return nil, err
	}
	if err := s.registry.Register(pools); err != nil {
		return nil, err
	}
	if err := s.registry.Register(collectors.NewGoCollector()); err != nil {
		return nil, err
	}
	return s, nil
}

// handler returns the routes: /sum and /metrics.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sum", s.sum)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{}))
	return mux
}

// sum answers "sum(1..n) = x\n".
func (s *server) sum(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("n"))
	if err != nil || n < 0 || n > maxN {
		http.Error(w, fmt.Sprintf("n must be an integer in [0, %d]", maxN), http.StatusBadRequest)
		return
	}
	nums := s.scratch.Get()
	for i := 1; i <= n; i++ {
		*nums = append(*nums, i)
	}
	total := 0
	for _, v := range *nums {
		total += v
	}
	s.scratch.Put(nums)

	buf := s.responses.Get()
	buf.WriteString("sum(1..")
	buf.AppendInt(int64(n))
	buf.WriteString(") = ")
	buf.AppendInt(int64(total))
	buf.WriteByte('\n')
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	buf.WriteTo(w) // the client may have gone: nothing to do about it
	s.responses.Put(buf)
}

// run serves on addr until ctx is done, printing the address it listens on
// to out.
func run(ctx context.Context, addr string, out io.Writer) error {
	s, err := newServer()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "listening on http://%s (metrics at /metrics)\n", ln.Addr())
	hs := &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "`address` to listen on; :8080 for every interface, 127.0.0.1:0 for any free port")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
