package reuseprom

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/push"
)

// ErrPush is wrapped by every error Pusher.Push and Pusher.Add return: the
// Pushgateway could not be reached, answered with an error status, the
// Pusher's configuration is invalid, or gathering the metrics failed. The
// underlying error is wrapped too, so errors.Is also finds, say,
// context.DeadlineExceeded.
var ErrPush = errors.New("reuseprom: push to Pushgateway failed")

// DefaultTimeout bounds a push when Pusher.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Pusher pushes metrics to a Prometheus Pushgateway, for batch jobs that end
// before Prometheus would scrape them. Call Push or Add once, when the job
// ends, with a registry that holds a Collector.
//
// Set the fields before the first push and do not change them afterwards; a
// Pusher can then be used by multiple goroutines. The zero value has no URL
// and no Job: pushing with it returns an error.
//
// A push never panics and never exits the program: every failure is returned
// as an error wrapping ErrPush, for the job to log or ignore. Every push is
// bounded by Timeout.
type Pusher struct {
	// URL is the Pushgateway's address, such as "http://127.0.0.1:9091" or
	// "127.0.0.1:9091" (http:// is then assumed), without the
	// /metrics/job/... path.
	URL string

	// Job is the job label of the pushed group. It must not be empty.
	Job string

	// Grouping holds further labels of the group key besides job, such as
	// {"instance": "host-1"} or {"shard": "3"}. Pushed metrics must not carry
	// these labels themselves, nor a job label.
	Grouping map[string]string

	// Timeout bounds each push, connection included. Zero means
	// DefaultTimeout; a negative value means no timeout beyond the context's.
	Timeout time.Duration

	// Client, if non-nil, sends the request instead of http.DefaultClient.
	// Timeout applies either way, through the request's context.
	Client *http.Client
}

// Push replaces the whole group (job plus Grouping) on the Pushgateway with
// the metrics gathered from g: every metric previously pushed to that group,
// under any name, is deleted. It uses HTTP PUT.
//
// Use Push at the end of a job that pushes once: the group then holds exactly
// the last run's metrics.
func (p *Pusher) Push(ctx context.Context, g prometheus.Gatherer) error {
	return p.do(ctx, g, http.MethodPut)
}

// Add replaces, within the group, only the metric families gathered from g:
// families with other names previously pushed to the group stay. It uses HTTP
// POST.
//
// Use Add when several parts of a job push to the same group, each its own
// metric names.
func (p *Pusher) Add(ctx context.Context, g prometheus.Gatherer) error {
	return p.do(ctx, g, http.MethodPost)
}

func (p *Pusher) do(ctx context.Context, g prometheus.Gatherer, method string) error {
	if p == nil {
		return fmt.Errorf("%w: nil *Pusher", ErrPush)
	}
	if p.URL == "" {
		return fmt.Errorf("%w: Pusher.URL is empty", ErrPush)
	}
	if p.Job == "" {
		return fmt.Errorf("%w: Pusher.Job is empty", ErrPush)
	}
	if g == nil {
		return fmt.Errorf("%w: nil Gatherer", ErrPush)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}

	pu := push.New(p.URL, p.Job).Gatherer(g)
	for k, v := range p.Grouping {
		pu.Grouping(k, v)
	}
	if p.Client != nil {
		pu.Client(p.Client)
	} else {
		pu.Client(http.DefaultClient)
	}

	var err error
	func() {
		// The push package and the Gatherer are not ours: keep a panic in
		// either from taking the job down.
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		if method == http.MethodPut {
			err = pu.PushContext(ctx)
		} else {
			err = pu.AddContext(ctx)
		}
	}()
	if err != nil {
		return fmt.Errorf("%w: %s job %q at %s: %w", ErrPush, verb(method), p.Job, p.URL, err)
	}
	return nil
}

func verb(method string) string {
	if method == http.MethodPut {
		return "Push"
	}
	return "Add"
}
