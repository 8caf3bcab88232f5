package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// PassEnv is the environment variable that makes a program a pass of a
// report run (see Options.Exec and ServePass): it holds the pass's
// settings, as JSON.
const PassEnv = "REUSE_REPORT_PASS"

// passSpec is what a pass run in a process of its own is told.
type passSpec struct {
	Pass     int           `json:"pass"`
	Filter   string        `json:"filter"`
	Round    time.Duration `json:"round"`
	GOGC     int           `json:"gogc"`
	MemLimit int64         `json:"mem_limit"`
	Ballast  int           `json:"ballast"`
}

// passRound is one round of one variant, measured in a process of its
// own: what its measurement gathered, for the run to add to its own.
type passRound struct {
	NS, CPU           float64
	Ops, Allocs       uint64
	Bytes, GCs        uint64
	Errors            uint64
	Misses, Drops     uint64
	Counted           bool
	First, FirstBytes uint64
	Output, OutErr    string
	Check, FirstErr   string
}

// IsPass reports whether this process was started to run one pass of a
// report (PassEnv is set): its main must then call ServePass and exit.
func IsPass() bool { return os.Getenv(PassEnv) != "" }

// ServePass runs the pass that PassEnv describes and writes its rounds to
// w, and returns the exit status for the process: 0, or 2 when PassEnv is
// not a pass's settings.
func ServePass(w io.Writer) int {
	var spec passSpec
	if err := json.Unmarshal([]byte(os.Getenv(PassEnv)), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "report: "+PassEnv+":", err)
		return 2
	}
	opt := Options{GOGC: spec.GOGC, MemLimit: spec.MemLimit, Ballast: spec.Ballast}
	if spec.Filter != "" {
		re, err := regexp.Compile(spec.Filter)
		if err != nil {
			fmt.Fprintln(os.Stderr, "report: "+PassEnv+":", err)
			return 2
		}
		opt.Filter = re
	}
	_, restore := setGC(opt)
	defer restore()
	var out [][][]passRound // workload, case, variant
	for _, d := range Select(opt.Filter) {
		var cases [][]passRound
		for _, cd := range d.Cases {
			c := &caseRun{def: cd, ms: make([]*measurement, len(cd.Variants))}
			c.pass(spec.Pass, spec.Round)
			var rounds []passRound
			for _, m := range c.ms {
				rounds = append(rounds, m.passRound())
			}
			cases = append(cases, rounds)
		}
		out = append(out, cases)
	}
	if err := json.NewEncoder(w).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		return 2
	}
	return 0
}

// passRound is the one round m has measured, on its first instance.
func (m *measurement) passRound() passRound {
	r := passRound{Ops: m.ops, Allocs: m.allocs, Bytes: m.bytes, GCs: m.gcs, Errors: m.errors,
		Misses: m.misses, Drops: m.drops, Counted: m.pool.news != nil,
		First: m.first, FirstBytes: m.firstBytes, Output: m.output, Check: m.check}
	if len(m.ns) > 0 {
		r.NS, r.CPU = m.ns[0], m.cpu[0]
	}
	if m.outErr != nil {
		r.OutErr = m.outErr.Error()
	}
	if m.firstErr != nil {
		r.FirstErr = m.firstErr.Error()
	}
	return r
}

// add adds a round measured in a process of its own to m, as renew and
// round would have: its figures, and its output checked against the
// first pass's.
func (m *measurement) add(r passRound, first bool) {
	if first {
		m.first, m.firstBytes, m.output = r.First, r.FirstBytes, r.Output
	} else if r.Output != m.output && m.check == "" {
		m.check = fmt.Sprintf("output differs between fresh instances: %s, then %s", short(m.output), short(r.Output))
	}
	if m.outErr == nil && r.OutErr != "" {
		m.outErr = errors.New(r.OutErr)
	}
	if m.check == "" && r.Check != "" {
		m.check = r.Check
	}
	if m.firstErr == nil && r.FirstErr != "" {
		m.firstErr = errors.New(r.FirstErr)
	}
	m.ns, m.cpu = append(m.ns, r.NS), append(m.cpu, r.CPU)
	m.ops += r.Ops
	m.allocs += r.Allocs
	m.bytes += r.Bytes
	m.gcs += r.GCs
	m.errors += r.Errors
	m.misses += r.Misses
	m.drops += r.Drops
	m.instances++
	if r.Counted {
		m.seen = true
	}
}

// spawnPass runs pass in a process of its own, the program exe, and adds
// its rounds to cases, one per selected workload. It returns an error,
// and adds nothing, when the process fails or its output does not fit.
func spawnPass(exe string, opt Options, pass int, round time.Duration, cases [][]*caseRun) error {
	spec := passSpec{Pass: pass, Round: round, GOGC: opt.GOGC, MemLimit: opt.MemLimit, Ballast: opt.Ballast}
	if opt.Filter != nil {
		spec.Filter = opt.Filter.String()
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	// Under the race detector a process sleeps 1 s as it exits, for
	// other threads to finish their reports; a pass has none to wait for.
	cmd.Env = append(os.Environ(), PassEnv+"="+string(b), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("pass %d: %v: %s", pass+1, err, stderr.String())
	}
	var rounds [][][]passRound
	if err := json.Unmarshal(out, &rounds); err != nil {
		return fmt.Errorf("pass %d: %v", pass+1, err)
	}
	if len(rounds) != len(cases) {
		return fmt.Errorf("pass %d: %d workloads, want %d", pass+1, len(rounds), len(cases))
	}
	for i, cs := range cases {
		if len(rounds[i]) != len(cs) {
			return fmt.Errorf("pass %d: workload %d has %d cases, want %d", pass+1, i, len(rounds[i]), len(cs))
		}
		for j, c := range cs {
			if len(rounds[i][j]) != len(c.ms) {
				return fmt.Errorf("pass %d: a case has %d variants, want %d", pass+1, len(rounds[i][j]), len(c.ms))
			}
		}
	}
	for i, cs := range cases {
		for j, c := range cs {
			for k, r := range rounds[i][j] {
				if c.ms[k] == nil {
					c.ms[k] = &measurement{vd: c.def.Variants[k]}
					c.ms[k].add(r, true)
					continue
				}
				c.ms[k].add(r, false)
			}
		}
	}
	return nil
}
