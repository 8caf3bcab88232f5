package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/examples/internal/promtest"
	"github.com/reuse-go/reuse/reuseprom"
)

// TestProcess checks the work itself, without a Pushgateway.
func TestProcess(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"-records", "1000"}, &out, &errOut); err != nil {
		t.Fatalf("run: %v (stderr: %s)", err, errOut.String())
	}
	if !strings.Contains(out.String(), "processed 1000 records") || !strings.Contains(out.String(), "checksum ") {
		t.Errorf("output %q, want the count and a checksum", out.String())
	}
	j, err := newJob()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := j.process(100), j.process(100); a != b {
		t.Errorf("process(100) = %08x then %08x: a pooled record leaked state into the next", a, b)
	}
	if s := j.records.Stats(); s.Gets != 200 || s.Puts != 200 {
		t.Errorf("records pool after 200 records: %+v, want 200 gets and 200 puts", s)
	}
}

// TestFailedPushDoesNotFailJob: the work is done, the push error is reported.
func TestFailedPushDoesNotFailJob(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-records", "10", "-pushgateway", "http://127.0.0.1:1", "-push-timeout", "2s"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run with an unreachable Pushgateway: %v, want nil (the work is done)", err)
	}
	if !strings.Contains(errOut.String(), "metrics not pushed") {
		t.Errorf("stderr %q, want the push failure reported", errOut.String())
	}
}

// TestPushgateway runs the batch against a real Pushgateway, reads the pushed
// metrics back from its /metrics, then checks what Add and Push replace.
func TestPushgateway(t *testing.T) {
	gw := promtest.Pushgateway(t)
	const job = "reuse_batch_test"
	group := map[string]string{"job": job, "instance": "ci"}

	var out, errOut bytes.Buffer
	args := []string{"-pushgateway", gw, "-job", job, "-records", "500", "-label", "instance=ci"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v", err)
	}
	if errOut.Len() > 0 {
		t.Fatalf("run reported: %s", errOut.String())
	}

	// series reads one series of the group back from the Pushgateway.
	series := func(name, pool string) (float64, bool) {
		t.Helper()
		mfs, err := promtest.Scrape(gw)
		if err != nil {
			t.Fatalf("reading the Pushgateway: %v", err)
		}
		want := map[string]string{"pool": pool}
		if pool == "" {
			want = map[string]string{}
		}
		for k, v := range group {
			want[k] = v
		}
		return promtest.Find(mfs, name, want)
	}
	expect := func(step, name, pool string, want float64) {
		t.Helper()
		got, ok := series(name, pool)
		switch {
		case !ok:
			t.Errorf("%s: %s{pool=%q} missing from the Pushgateway", step, name, pool)
		case got != want:
			t.Errorf("%s: %s{pool=%q} = %g, want %g", step, name, pool, got, want)
		}
	}
	expectGone := func(step, name, pool string) {
		t.Helper()
		if got, ok := series(name, pool); ok {
			t.Errorf("%s: %s{pool=%q} = %g still on the Pushgateway, want it replaced", step, name, pool, got)
		}
	}

	// The batch pushed: 500 records, each one Get and one Put.
	expect("batch push", "reuse_pool_gets_total", "records", 500)
	expect("batch push", "reuse_pool_puts_total", "records", 500)
	if v, ok := series("reuse_buffer_pool_default_capacity_bytes", "lines"); !ok || v <= 0 {
		t.Errorf("batch push: reuse_buffer_pool_default_capacity_bytes{pool=\"lines\"} = %g, %t; want > 0", v, ok)
	}

	pusher := &reuseprom.Pusher{URL: gw, Job: job, Grouping: map[string]string{"instance": "ci"}}
	ctx := context.Background()

	// Add of another family keeps the pool families.
	extra := prometheus.NewRegistry()
	extra.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "reuse_batch_last_records", Help: "Records processed by the last run.",
	}, func() float64 { return 500 }))
	if err := pusher.Add(ctx, extra); err != nil {
		t.Fatalf("Add: %v", err)
	}
	expect("Add of another family", "reuse_batch_last_records", "", 500)
	expect("Add of another family", "reuse_pool_gets_total", "records", 500)

	// Add of the pool families replaces them, whole: the pool "lines" is
	// not in the new push, so its series go; the other family stays.
	again := reuseprom.NewCollector()
	p := &reuse.Pool[*int]{New: func() *int { return new(int) }, CountAll: true}
	held := make([]*int, 42) // 42 gets, given back when the test ends
	for i := range held {
		held[i] = p.Get()
	}
	defer func() {
		for _, x := range held {
			p.Put(x)
		}
	}()
	if err := again.Register("records", p); err != nil {
		t.Fatal(err)
	}
	regAgain := prometheus.NewRegistry()
	regAgain.MustRegister(again)
	if err := pusher.Add(ctx, regAgain); err != nil {
		t.Fatalf("Add: %v", err)
	}
	expect("Add of the same families", "reuse_pool_gets_total", "records", 42)
	expectGone("Add of the same families", "reuse_pool_gets_total", "lines")
	expect("Add of the same families", "reuse_batch_last_records", "", 500)

	// Push replaces the whole group: only the pushed family is left.
	if err := pusher.Push(ctx, extra); err != nil {
		t.Fatalf("Push: %v", err)
	}
	expect("Push", "reuse_batch_last_records", "", 500)
	expectGone("Push", "reuse_pool_gets_total", "records")
	expectGone("Push", "reuse_pool_news_total", "records")
}
