package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/examples/internal/promtest"
	"github.com/reuse-go/reuse/reuseprom"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading the body: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

func newTestServer(t *testing.T) (*server, *httptest.Server) {
	t.Helper()
	s, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.handler())
	t.Cleanup(ts.Close)
	return s, ts
}

func TestSum(t *testing.T) {
	_, ts := newTestServer(t)
	for _, tc := range []struct {
		query  string
		status int
		body   string
	}{
		{"n=0", 200, "sum(1..0) = 0\n"},
		{"n=100", 200, "sum(1..100) = 5050\n"},
		{"n=100", 200, "sum(1..100) = 5050\n"}, // from a pooled slice: no stale numbers
		{"n=3", 200, "sum(1..3) = 6\n"},
		{"n=-1", 400, ""},
		{"n=x", 400, ""},
		{fmt.Sprintf("n=%d", maxN+1), 400, ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			status, body := get(t, ts.URL+"/sum?"+tc.query)
			if status != tc.status {
				t.Fatalf("GET /sum?%s: status %d, want %d", tc.query, status, tc.status)
			}
			if tc.body != "" && body != tc.body {
				t.Errorf("GET /sum?%s = %q, want %q", tc.query, body, tc.body)
			}
		})
	}
}

func TestMetricsEndpoint(t *testing.T) {
	s, ts := newTestServer(t)
	for range 3 {
		get(t, ts.URL+"/sum?n=10")
	}
	status, body := get(t, ts.URL+"/metrics")
	if status != 200 {
		t.Fatalf("GET /metrics: status %d", status)
	}
	for _, want := range []string{
		`reuse_pool_gets_total{pool="scratch"} 3`,
		fmt.Sprintf(`reuse_buffer_pool_default_capacity_bytes{pool="responses"} %d`, s.responses.Stats().DefaultCap),
		"go_goroutines ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestRunListensAndStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", &out) }()
	// Let it serve a moment. out is read only after run returns; run prints
	// the address before serving, and returns nil even when cancelled
	// before it serves.
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return 10s after its context was cancelled")
	}
	if !strings.HasPrefix(out.String(), "listening on http://127.0.0.1:") {
		t.Errorf("run printed %q, want the loopback address it listened on", out.String())
	}
}

// TestPrometheusScrapes starts the real Prometheus, scraping the server and a
// real Pushgateway (with honor_labels) every second, and queries its HTTP API
// until it reports the values the pools report.
func TestPrometheusScrapes(t *testing.T) {
	promtest.Binary(t, "prometheus") // skip or fail before starting anything
	gw := promtest.Pushgateway(t)

	// A batch job's pool, pushed to the Pushgateway.
	const batchJob = "reuse_batch_it"
	batchPool := &reuse.Pool[*int]{New: func() *int { return new(int) }, CountAll: true}
	held := make([]*int, 7) // 7 gets, given back when the test ends
	for i := range held {
		held[i] = batchPool.Get()
	}
	defer func() {
		for _, x := range held {
			batchPool.Put(x)
		}
	}()
	batch := reuseprom.NewCollector()
	if err := batch.Register("rows", batchPool); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(batch)
	pusher := &reuseprom.Pusher{URL: gw, Job: batchJob, Grouping: map[string]string{"instance": "ci"}}
	if err := pusher.Push(context.Background(), reg); err != nil {
		t.Fatalf("Push: %v", err)
	}

	// The server, used a little.
	s, ts := newTestServer(t)
	const requests = 25
	for i := range requests {
		if status, _ := get(t, fmt.Sprintf("%s/sum?n=%d", ts.URL, 100*i)); status != 200 {
			t.Fatalf("GET /sum: status %d", status)
		}
	}
	// The server is idle from here on: its pools' stats no longer move.
	scratch, responses := s.scratch.Stats(), s.responses.Stats()

	prom := promtest.Prometheus(t,
		promtest.Target{Job: "server", Addr: strings.TrimPrefix(ts.URL, "http://")},
		promtest.Target{Job: "pushgateway", Addr: strings.TrimPrefix(gw, "http://"), HonorLabels: true},
	)

	for _, tc := range []struct {
		query  string
		want   float64
		labels map[string]string // labels the one series must have
	}{
		{`reuse_pool_gets_total{job="server",pool="scratch"}`, requests, nil},
		{`reuse_pool_gets_total{job="server",pool="scratch"}`, float64(scratch.Gets), nil},
		{`reuse_pool_news_total{job="server",pool="scratch"}`, float64(scratch.News), nil},
		{`reuse_pool_drops_total{job="server",pool="scratch"}`, float64(scratch.Drops), nil},
		{`reuse_pool_news_total{job="server",pool="responses"}`, float64(responses.News), nil},
		{`reuse_buffer_pool_default_capacity_bytes{job="server",pool="responses"}`, float64(responses.DefaultCap), nil},
		{`reuse_buffer_pool_keep_capacity_bytes{job="server",pool="responses"}`, float64(responses.KeepCap), nil},
		// honor_labels keeps the pushed job and instance, instead of
		// job="pushgateway" and exported_job.
		{`reuse_pool_gets_total{pool="rows"}`, 7, map[string]string{"job": batchJob, "instance": "ci"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := waitQuery(t, prom, tc.query, 60*time.Second)
			if got.Value != tc.want {
				t.Errorf("%s = %g, want %g", tc.query, got.Value, tc.want)
			}
			for k, v := range tc.labels {
				if got.Labels[k] != v {
					t.Errorf("%s: label %s = %q, want %q (labels %v)", tc.query, k, got.Labels[k], v, got.Labels)
				}
			}
		})
	}
}

// waitQuery polls Prometheus until query returns exactly one series, and
// returns it; it fails t after timeout.
func waitQuery(t *testing.T, prom, query string, timeout time.Duration) promtest.Sample {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		samples, err := promtest.Query(prom, query)
		if err == nil && len(samples) == 1 {
			return samples[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("query %s: after %v: %d series, error %v; want one series", query, timeout, len(samples), err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
