// Command httpe2e measures the pools end to end: a net/http server on
// loopback that encodes JSON responses into pooled buffers, one variant per
// pool and one without pooling, under a load of many concurrent clients.
//
// Each variant's server runs in a process of its own (the command runs
// itself with -serve), so that its peak resident set (VmHWM) is its own;
// the clients run in the driver's process. Response lengths follow a
// log-normal with a heavy tail (median -median, -sigma, capped at -max),
// the same sequence for every variant. The variants run interleaved, in a
// shuffled order in each of -rounds rounds, each for -warmup and then for
// -duration or -requests requests, whichever comes first. The table gives
// the medians of requests/s, p99 latency, peak RSS, the live heap and GC
// cycles (the last two during the measured part). With -heapprofiles DIR,
// each server also writes heap profiles, which scripts/heapsplit splits by
// where the live heap was allocated. With -garbage N, each request's
// handler also allocates N bytes, as a real handler's own work does, so
// that every server collects about as often whatever its pool allocates.
// The variant direct, run only when -variants names it, is an oracle with
// no buffer at all: the Encoder writes straight into the ResponseWriter.
// A variant written NAME@N runs NAME's server with GOGC=N: the trade of
// peak RSS against collections, which the capped pool makes by making
// garbage and a GOGC makes for any pool; such a variant is in the table
// but not in the target, which is on the defaults.
//
//	go run ./cmd/httpe2e -md e2e.md -json e2e.json
//	go run ./cmd/httpe2e -rounds 6 -garbage 4096     # with a handler's work
//	go run ./cmd/httpe2e -duration 2s -warmup 500ms   # quick
//	go run ./cmd/httpe2e -variants syncpool-64K,bytebuf,bytebuf@80
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// options are the command's flags.
type options struct {
	serve            string
	variants         string
	clients, rounds  int
	requests         int
	duration, warmup time.Duration
	median, sigma    float64
	maxLen           int
	seed             uint64
	procs            int
	encoder          string
	mdPath, jsonPath string
	heapProfiles     string
	garbage          int
}

// variants are the servers, in table order: no pooling, the peers, bytebuf.
var variants = []string{"nopool", "syncpool", "syncpool-64K", "bytebufferpool", "libp2p", "zap", "bytebuf"}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("httpe2e", flag.ContinueOnError)
	fs.StringVar(&o.serve, "serve", "", "run the server of this variant (what the driver starts)")
	fs.StringVar(&o.variants, "variants", strings.Join(variants, ","), "comma-separated variants; direct (no buffer, an oracle) runs only when named; NAME@N runs NAME's server with GOGC=N")
	fs.IntVar(&o.clients, "clients", 64, "concurrent clients")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds; each runs every variant once, in a shuffled order")
	fs.IntVar(&o.requests, "requests", 1000000, "the most requests of one measured run")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "the longest measured run")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "load before the measured run, not counted")
	fs.Float64Var(&o.median, "median", 4096, "median response length, bytes")
	fs.Float64Var(&o.sigma, "sigma", 1.2, "sigma of the log-normal response lengths")
	fs.IntVar(&o.maxLen, "max", 1<<20, "longest response, bytes")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the response lengths and of the order of the variants")
	fs.IntVar(&o.procs, "procs", 0, "GOMAXPROCS of the servers (0: the Go default)")
	fs.StringVar(&o.encoder, "encoder", "json", "how the servers write the JSON into the pooled buffer: json (encoding/json's Encoder, which encodes into a buffer of its own pool and writes it in one piece) or append (item by item, with no other pool)")
	fs.IntVar(&o.garbage, "garbage", 0, "bytes each request's handler allocates besides the response, and drops when it returns: the work of a real handler, which sets how often the server collects (0: none)")
	fs.StringVar(&o.heapProfiles, "heapprofiles", "", "a folder: each server writes a heap profile (of the last collection, at MemProfileRate 2048) into it every 400 ms of its measured run, as VARIANT-PID-N.pprof")
	fs.StringVar(&o.mdPath, "md", "-", "where the Markdown table goes (-: standard output)")
	fs.StringVar(&o.jsonPath, "json", "", "where the raw figures go, as JSON (empty: nowhere)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.clients < 1 || o.rounds < 1 || o.requests < 1 || o.duration <= 0 || o.warmup < 0 || o.garbage < 0 {
		return o, fmt.Errorf("httpe2e: -clients, -rounds, -requests and -duration must be positive, and -garbage not negative")
	}
	enc, ok := jsonEncoders[o.encoder]
	if !ok {
		return o, fmt.Errorf("httpe2e: no encoder %q (json or append)", o.encoder)
	}
	for _, v := range strings.Split(o.variants, ",") {
		name, _, err := splitVariant(v)
		if err != nil {
			return o, err
		}
		if _, ok := encoders(enc)[name]; !ok {
			return o, fmt.Errorf("httpe2e: no variant %q", v)
		}
	}
	return o, nil
}

// splitVariant splits a variant into the pool's name and the GOGC after
// an @ (0 when there is none).
func splitVariant(v string) (name string, gogc int, err error) {
	name, n, tuned := strings.Cut(v, "@")
	if !tuned {
		return v, 0, nil
	}
	if gogc, err = strconv.Atoi(n); err != nil || gogc < 1 {
		return "", 0, fmt.Errorf("httpe2e: variant %q: the GOGC after @ must be a positive integer", v)
	}
	return name, gogc, nil
}

func main() {
	if err := mainErr(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func mainErr(args []string, progress io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	if o.serve != "" {
		return serve(o.serve, o)
	}
	if o.heapProfiles != "" {
		if err := os.MkdirAll(o.heapProfiles, 0o755); err != nil {
			return err
		}
	}
	rep, err := drive(o, args, progress)
	if err != nil {
		return err
	}
	if o.jsonPath != "" {
		b, err := json.MarshalIndent(rep, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonPath, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	var sb strings.Builder
	writeMarkdown(&sb, rep)
	if o.mdPath == "-" {
		_, err := os.Stdout.WriteString(sb.String())
		return err
	}
	return os.WriteFile(o.mdPath, []byte(sb.String()), 0o644)
}
