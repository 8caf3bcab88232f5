package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reuse-go/reuse/benchmarks/internal/runstat"
)

// result is one measured run of one variant.
type result struct {
	Requests  int64   `json:"requests"`
	Errors    int64   `json:"errors"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"requests_per_s"`
	P50ms     float64 `json:"p50_ms"`
	P99ms     float64 `json:"p99_ms"`
	VmHWMKiB  int64   `json:"vmhwm_kib"`
	GCCycles  uint64  `json:"gc_cycles"`     // during the measured run
	LiveKiB   int64   `json:"live_heap_kib"` // the mean heap the collections of the measured run found live
	CPUus     float64 `json:"server_cpu_us_per_request"`
	BodyBytes int64   `json:"body_bytes"`
}

// report is everything the driver measured, as the JSON holds it.
type report struct {
	Start    time.Time           `json:"start"`
	Seconds  float64             `json:"seconds"`
	Go       string              `json:"go"`
	NumCPU   int                 `json:"num_cpu"`
	LoadAvg  string              `json:"loadavg_start"`
	LoadEnd  string              `json:"loadavg_end"`
	Args     []string            `json:"args"`
	Clients  int                 `json:"clients"`
	Variants []string            `json:"variants"`
	Results  map[string][]result `json:"results"` // one per round
	Medians  map[string]result   `json:"medians"`
}

// drive runs every variant, round after round, and returns the figures.
func drive(o options, args []string, progress io.Writer) (*report, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	vs := strings.Split(o.variants, ",")
	rep := &report{Start: time.Now().UTC(), Go: runtime.Version(), NumCPU: runtime.NumCPU(), LoadAvg: runstat.LoadAvg(),
		Args: shownArgs(args), Clients: o.clients, Variants: vs, Results: map[string][]result{}}
	rng := rand.New(rand.NewPCG(o.seed, 64))
	for round := range o.rounds {
		for _, i := range rng.Perm(len(vs)) {
			r, err := runVariant(self, vs[i], o)
			if err != nil {
				return nil, fmt.Errorf("httpe2e: %s: %w", vs[i], err)
			}
			rep.Results[vs[i]] = append(rep.Results[vs[i]], r)
			fmt.Fprintf(progress, "httpe2e: round %d %s: %.0f req/s, p99 %.1f ms, VmHWM %d KiB, %d GCs, %d errors\n",
				round+1, vs[i], r.PerSecond, r.P99ms, r.VmHWMKiB, r.GCCycles, r.Errors)
		}
	}
	rep.Medians = map[string]result{}
	for _, v := range vs {
		rep.Medians[v] = medianResult(rep.Results[v])
	}
	rep.Seconds = time.Since(rep.Start).Seconds()
	rep.LoadEnd = runstat.LoadAvg()
	return rep, nil
}

// serverArgs are the flags a server of variant v runs with.
func serverArgs(v string, o options) []string {
	return []string{"-serve", v, "-median", strconv.FormatFloat(o.median, 'g', -1, 64),
		"-sigma", strconv.FormatFloat(o.sigma, 'g', -1, 64), "-max", strconv.Itoa(o.maxLen),
		"-seed", strconv.FormatUint(o.seed, 10), "-encoder", o.encoder, "-heapprofiles", o.heapProfiles,
		"-garbage", strconv.Itoa(o.garbage)}
}

// serverEnv is the environment a server runs in: env, with -procs and the
// GOGC of its variant (0: env's) added last, where they override env's.
func serverEnv(env []string, gogc int, o options) []string {
	env = slices.Clip(env)
	if o.procs > 0 {
		env = append(env, "GOMAXPROCS="+strconv.Itoa(o.procs))
	}
	if gogc > 0 {
		env = append(env, "GOGC="+strconv.Itoa(gogc))
	}
	return env
}

// runVariant starts the server of variant v, loads it, and stops it.
func runVariant(self, v string, o options) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), o.warmup+o.duration+time.Minute)
	defer cancel()
	name, gogc, err := splitVariant(v)
	if err != nil {
		return result{}, err
	}
	cmd := exec.CommandContext(ctx, self, serverArgs(name, o)...)
	cmd.Env = serverEnv(os.Environ(), gogc, o)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return result{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer cmd.Wait()
	defer stdin.Close()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return result{}, fmt.Errorf("reading the server's address: %w", err)
	}
	return load("http://"+strings.TrimSpace(addr), o)
}

// load runs the warm-up and the measured run against base, and reads the
// server's figures.
func load(base string, o options) (result, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: o.clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var next atomic.Int64
	if o.warmup > 0 {
		hammer(cl, base, o.clients, &next, time.Now().Add(o.warmup), int64(o.requests))
	}
	s0, err := getStats(cl, base)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	first := next.Load()
	lat, errs, body := hammer(cl, base, o.clients, &next, start.Add(o.duration), first+int64(o.requests))
	elapsed := time.Since(start)
	s1, err := getStats(cl, base)
	if err != nil {
		return result{}, err
	}
	slices.Sort(lat)
	r := result{Requests: int64(len(lat)), Errors: errs, Seconds: elapsed.Seconds(), VmHWMKiB: s1.VmHWMKiB,
		GCCycles: s1.GCCycles - s0.GCCycles, BodyBytes: body}
	if n := s1.LiveN - s0.LiveN; n > 0 {
		r.LiveKiB = int64((s1.LiveSum - s0.LiveSum) / n >> 10)
	}
	r.PerSecond = float64(r.Requests) / r.Seconds
	r.CPUus = float64(s1.CPUNs-s0.CPUNs) / 1000 / float64(max(r.Requests, 1))
	r.P50ms = quantile(lat, 0.50)
	r.P99ms = quantile(lat, 0.99)
	if errs > 0 && len(lat) == 0 {
		return r, errors.New("every request failed")
	}
	return r, nil
}

// quantile returns the q quantile of the sorted latencies, in ms.
func quantile(lat []time.Duration, q float64) float64 {
	if len(lat) == 0 {
		return 0
	}
	i := min(len(lat)-1, int(q*float64(len(lat))))
	return float64(lat[i].Microseconds()) / 1000
}

// hammer runs clients goroutines, each sending requests one after the
// other, until deadline or until the request index reaches limit. It
// returns the latencies of the successful requests, the failures and the
// body bytes read.
func hammer(cl *http.Client, base string, clients int, next *atomic.Int64, deadline time.Time, limit int64) ([]time.Duration, int64, int64) {
	var mu sync.Mutex
	var all []time.Duration
	var errs, body atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 4096)
			for time.Now().Before(deadline) {
				i := next.Add(1) - 1
				if i >= limit {
					break
				}
				t := time.Now()
				n, err := get(cl, base+"/r?i="+strconv.FormatInt(i, 10))
				if err != nil {
					errs.Add(1)
					continue
				}
				lat = append(lat, time.Since(t))
				body.Add(n)
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return all, errs.Load(), body.Load()
}

// get fetches url and reads its body.
func get(cl *http.Client, url string) (int64, error) {
	resp, err := cl.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %s", resp.Status)
	}
	return n, err
}

func getStats(cl *http.Client, base string) (serverStats, error) {
	var s serverStats
	resp, err := cl.Get(base + "/stats")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	return s, json.NewDecoder(resp.Body).Decode(&s)
}
