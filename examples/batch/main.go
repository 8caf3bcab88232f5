// Command batch is a batch job that formats records with pooled memory and,
// when it ends, pushes the pools' counters to a Prometheus Pushgateway, since
// the job is gone before Prometheus would scrape it.
//
// Usage:
//
//	batch -pushgateway http://127.0.0.1:9091 [-job reuse_batch] [-records 10000] [-label instance=host-1 ...]
//
// The metrics are pushed under the job name and the grouping labels given
// with -label (instance=<hostname> when there is none), replacing what the
// previous run of the same job and labels pushed (an HTTP PUT; see
// reuseprom.Pusher.Push). With -pushgateway empty nothing is pushed. A failed
// push is reported on standard error and does not fail the job: its work is
// done.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reuseprom"
)

// record is one unit of the batch's work.
type record struct {
	ID    int
	Name  string
	Items []string
}

// job holds the pools the batch uses and the collector over them.
type job struct {
	// records holds record structs, reset between uses.
	records reuse.Pool[*record]
	// lines holds the buffers records are formatted into.
	lines bytebuf.Pool
	// pools reports both.
	pools *reuseprom.Collector
}

func newJob() (*job, error) {
	j := &job{pools: reuseprom.NewCollector()}
	j.records = reuse.Pool[*record]{
		New:      func() *record { return &record{Items: make([]string, 0, 8)} },
		Reset:    func(r *record) { *r = record{Items: r.Items[:0]} },
		CountAll: true,
	}
	if err := j.pools.Register("records", &j.records); err != nil {
		return nil, err
	}
	if err := j.pools.RegisterBuffers("lines", &j.lines); err != nil {
		return nil, err
	}
	return j, nil
}

// process formats n records as CSV lines and returns their checksum.
func (j *job) process(n int) uint32 {
	sum := crc32.NewIEEE()
	for i := range n {
		r := j.records.Get()
		r.ID = i
		r.Name = "item"
		for k := range i % 5 {
			r.Items = append(r.Items, itemNames[k])
		}

		b := j.lines.Get()
		b.AppendInt(int64(r.ID))
		b.WriteByte(',')
		b.WriteString(r.Name)
		for _, it := range r.Items {
			b.WriteByte(',')
			b.WriteString(it)
		}
		b.WriteByte('\n')
		sum.Write(b.Bytes())
		j.lines.Put(b)
		j.records.Put(r)
	}
	return sum.Sum32()
}

var itemNames = []string{"knife", "shield", "herbs", "rope", "lamp"}

// labels is a repeatable -label key=value flag.
type labels map[string]string

func (l labels) String() string { return fmt.Sprint(map[string]string(l)) }

func (l labels) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return errors.New("want key=value")
	}
	l[k] = v
	return nil
}

// run runs the job with the command-line arguments args, writing its result
// to stdout and a failed push to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("batch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gateway := fs.String("pushgateway", "", "Pushgateway `URL`, such as http://127.0.0.1:9091; empty: do not push")
	jobName := fs.String("job", "reuse_batch", "job `name` the metrics are pushed under")
	n := fs.Int("records", 10000, "`number` of records to process")
	timeout := fs.Duration("push-timeout", reuseprom.DefaultTimeout, "bound on the push")
	grouping := labels{}
	fs.Var(grouping, "label", "grouping label `key=value` of the pushed group; repeatable (default instance=<hostname>)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 0 {
		return fmt.Errorf("-records %d: want at least 0", *n)
	}
	if len(grouping) == 0 {
		if host, err := os.Hostname(); err == nil {
			grouping["instance"] = host
		}
	}

	j, err := newJob()
	if err != nil {
		return err
	}
	start := time.Now()
	sum := j.process(*n)
	fmt.Fprintf(stdout, "processed %d records in %v, checksum %08x\n", *n, time.Since(start).Round(time.Millisecond), sum)

	if *gateway == "" {
		return nil
	}
	reg := prometheus.NewRegistry()
	if err := reg.Register(j.pools); err != nil {
		return err
	}
	p := &reuseprom.Pusher{URL: *gateway, Job: *jobName, Grouping: grouping, Timeout: *timeout}
	if err := p.Push(ctx, reg); err != nil {
		// The work is done: report the lost metrics, do not fail the job.
		fmt.Fprintf(stderr, "batch: metrics not pushed: %v\n", err)
		return nil
	}
	fmt.Fprintf(stdout, "pushed metrics to %s as job %q\n", *gateway, *jobName)
	return nil
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "batch:", err)
		}
		os.Exit(2)
	}
}
