package reuseprom_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/reuse-go/reuse/reuseprom"
)

// request is what the fake Pushgateway received.
type request struct {
	method, path string
	families     map[string]*dto.MetricFamily
}

// fakeGateway answers every push with status and records it.
func fakeGateway(t *testing.T, status int) (*httptest.Server, func() []request) {
	t.Helper()
	var mu sync.Mutex
	var got []request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := request{method: r.Method, path: r.URL.EscapedPath(), families: map[string]*dto.MetricFamily{}}
		dec := expfmt.NewDecoder(r.Body, expfmt.ResponseFormat(r.Header))
		for {
			mf := new(dto.MetricFamily)
			if err := dec.Decode(mf); err != nil {
				if err != io.EOF {
					t.Errorf("fake gateway: decoding the pushed body: %v", err)
				}
				break
			}
			req.families[mf.GetName()] = mf
		}
		mu.Lock()
		got = append(got, req)
		mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []request {
		mu.Lock()
		defer mu.Unlock()
		return append([]request(nil), got...)
	}
}

func registryWith(t *testing.T, name string, s fixed) *prometheus.Registry {
	t.Helper()
	c := reuseprom.NewCollector()
	mustRegister(t, c, name, &s)
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	return reg
}

func TestPusherMethodsAndPath(t *testing.T) {
	srv, requests := fakeGateway(t, http.StatusOK)
	reg := registryWith(t, "rows", fixed{Gets: 7, News: 2})
	p := &reuseprom.Pusher{URL: srv.URL, Job: "nightly", Grouping: map[string]string{"shard": "3"}}

	for _, tc := range []struct {
		name   string
		push   func(context.Context, prometheus.Gatherer) error
		method string
	}{
		{"Push", p.Push, http.MethodPut},
		{"Add", p.Add, http.MethodPost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(requests())
			if err := tc.push(context.Background(), reg); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			all := requests()
			if len(all) != before+1 {
				t.Fatalf("%s sent %d requests, want 1", tc.name, len(all)-before)
			}
			r := all[before]
			if r.method != tc.method {
				t.Errorf("%s used %s, want %s", tc.name, r.method, tc.method)
			}
			if want := "/metrics/job/nightly/shard/3"; r.path != want {
				t.Errorf("%s pushed to %s, want %s", tc.name, r.path, want)
			}
			mf := r.families["reuse_pool_gets_total"]
			if mf == nil || len(mf.Metric) != 1 || mf.Metric[0].GetCounter().GetValue() != 7 {
				t.Errorf("%s body: reuse_pool_gets_total = %v, want one series of value 7", tc.name, mf)
			}
		})
	}
}

func TestPusherErrors(t *testing.T) {
	reg := registryWith(t, "rows", fixed{News: 1})
	failing, _ := fakeGateway(t, http.StatusInternalServerError)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	// A job label in a pushed metric is refused by the push package.
	withJob := prometheus.NewRegistry()
	withJob.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "x", Help: "x", ConstLabels: prometheus.Labels{"job": "j"},
	}, func() float64 { return 1 }))

	for _, tc := range []struct {
		desc string
		p    *reuseprom.Pusher
		g    prometheus.Gatherer
		want string
	}{
		{"server error", &reuseprom.Pusher{URL: failing.URL, Job: "j"}, reg, "500"},
		{"connection refused", &reuseprom.Pusher{URL: closedURL, Job: "j"}, reg, closedURL},
		{"no URL", &reuseprom.Pusher{Job: "j"}, reg, "URL is empty"},
		{"no job", &reuseprom.Pusher{URL: failing.URL}, reg, "Job is empty"},
		{"nil gatherer", &reuseprom.Pusher{URL: failing.URL, Job: "j"}, nil, "nil Gatherer"},
		{"nil pusher", nil, reg, "nil *Pusher"},
		{"metric with a job label", &reuseprom.Pusher{URL: failing.URL, Job: "j"}, withJob, "job label"},
		{"gatherer panics", &reuseprom.Pusher{URL: failing.URL, Job: "j"}, panicky{}, "panic"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, push := range []func(context.Context, prometheus.Gatherer) error{tc.p.Push, tc.p.Add} {
				err := push(context.Background(), tc.g)
				if !errors.Is(err, reuseprom.ErrPush) {
					t.Fatalf("got %v, want an error wrapping ErrPush", err)
				}
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %q does not mention %q", err, tc.want)
				}
			}
		})
	}
}

type panicky struct{}

func (panicky) Gather() ([]*dto.MetricFamily, error) { panic("gatherer broke") }

func TestPusherTimeout(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()
	defer close(release)
	reg := registryWith(t, "rows", fixed{News: 1})

	t.Run("Timeout field", func(t *testing.T) {
		p := &reuseprom.Pusher{URL: slow.URL, Job: "j", Timeout: 50 * time.Millisecond}
		start := time.Now()
		err := p.Push(context.Background(), reg)
		if !errors.Is(err, reuseprom.ErrPush) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Push to a server that never answers: %v, want ErrPush and context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Push returned after %v, want about 50ms", d)
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		p := &reuseprom.Pusher{URL: slow.URL, Job: "j"} // DefaultTimeout is longer: ctx wins
		if err := p.Add(ctx, reg); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Add with an expiring context: %v, want context.DeadlineExceeded", err)
		}
	})
}
