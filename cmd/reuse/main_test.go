package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

// TestMain serves the passes that the runs of the tests start in
// processes of their own, as main does.
func TestMain(m *testing.M) {
	if report.IsPass() {
		os.Exit(report.ServePass(os.Stdout))
	}
	os.Exit(m.Run())
}

// quick are the flags of a fast run for tests: figures are rough but every
// workload, variant and detector runs, over the fewest rounds (5) that give
// an interval of the coverage a verdict needs.
var quick = []string{"-time", "1ms", "-rounds", "5"}

// runJSON runs the command with args plus -json and returns the decoded
// JSON, stdout and stderr.
func runJSON(t *testing.T, args ...string) (map[string]any, string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "report.json")
	var stdout, stderr bytes.Buffer
	if err := run(append(append(append([]string(nil), quick...), args...), "-json", file), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("-json output is not JSON: %v", err)
	}
	return m, stdout.String(), stderr.String()
}

// schema walks decoded JSON and records what does not fit.
type schema struct {
	t    *testing.T
	path string
}

func (s schema) at(p string) schema { return schema{s.t, s.path + p} }

func (s schema) obj(v any) map[string]any {
	s.t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		s.t.Fatalf("%s: %T, want an object", s.path, v)
	}
	return m
}

func (s schema) arr(m map[string]any, k string) []any {
	s.t.Helper()
	a, ok := m[k].([]any)
	if !ok {
		s.t.Fatalf("%s.%s: %T, want an array", s.path, k, m[k])
	}
	return a
}

func (s schema) str(m map[string]any, k string, nonEmpty bool) string {
	s.t.Helper()
	v, ok := m[k].(string)
	if !ok {
		s.t.Errorf("%s.%s: %T, want a string", s.path, k, m[k])
	}
	if nonEmpty && v == "" {
		s.t.Errorf("%s.%s is empty", s.path, k)
	}
	return v
}

func (s schema) num(m map[string]any, k string, min float64) float64 {
	s.t.Helper()
	v, ok := m[k].(float64)
	if !ok {
		s.t.Errorf("%s.%s: %T (%v), want a number", s.path, k, m[k], m[k])
		return 0
	}
	if math.IsNaN(v) || v < min {
		s.t.Errorf("%s.%s = %v, want at least %v", s.path, k, v, min)
	}
	return v
}

func (s schema) boolean(m map[string]any, k string) bool {
	s.t.Helper()
	v, ok := m[k].(bool)
	if !ok {
		s.t.Errorf("%s.%s: %T, want a bool", s.path, k, m[k])
	}
	return v
}

func TestJSONSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every workload")
	}
	top, stdout, stderr := runJSON(t)
	if stderr != "" {
		t.Errorf("stderr is not a terminal, yet the run wrote %q to it", stderr)
	}
	s := schema{t: t, path: "report"}
	s.str(top, "go_version", true)
	s.str(top, "goos", true)
	s.str(top, "goarch", true)
	s.num(top, "gomaxprocs", 1)
	s.num(top, "num_cpu", 1)
	s.num(top, "seconds", 0)
	s.str(top, "started", true)
	if timing := s.str(top, "timing", true); timing != "cpu" && timing != "wall" {
		t.Errorf("timing = %q, want cpu or wall", timing)
	}
	if mode := s.str(top, "mode", true); mode != "default" {
		t.Errorf("mode = %q, want default", mode)
	}
	// Each of the 5 passes ran in a process of its own (this test
	// binary, through TestMain), where there are processes: js/wasm and
	// wasip1 have none, and run the passes in the report's own process.
	want := 5.0
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		want = 0
	}
	if n := s.num(top, "processes", 0); n != want {
		t.Errorf("%v passes in processes of their own, want %v; error %v", n, want, top["process_error"])
	}
	if want > 0 && top["process_error"] != nil {
		t.Errorf("passes in processes of their own: error %v", top["process_error"])
	}
	defs := report.Defs()
	ws := s.arr(top, "workloads")
	if len(ws) != len(defs) {
		t.Fatalf("%d workloads, want the %d defined", len(ws), len(defs))
	}
	pitfalls := map[string]string{}
	invalid := map[string]bool{}
	for i, wv := range ws {
		id := defs[i].ID
		ws := s.at("." + id)
		w := ws.obj(wv)
		if got := ws.str(w, "id", true); got != id {
			t.Errorf("workload %d has id %q, want %q", i, got, id)
		}
		if !strings.Contains(stdout, id+" ") {
			t.Errorf("terminal table lacks %s", id)
		}
		ws.str(w, "name", true)
		ws.str(w, "op", true)
		ws.str(w, "published", true)
		ws.str(w, "claim", true)
		for _, fv := range ws.arr(w, "findings") {
			f := ws.obj(fv)
			p := ws.str(f, "pitfall", true)
			ws.str(f, "variant", true)
			ws.str(f, "message", true)
			ws.str(f, "evidence", true)
			pitfalls[id+" "+p] = id
		}
		cases := ws.arr(w, "cases")
		if len(cases) == 0 {
			t.Errorf("%s has no cases", id)
		}
		for _, cv := range cases {
			c := ws.obj(cv)
			cs := ws.at("/" + ws.str(c, "name", false))
			cs.num(c, "size", 0)
			for _, p := range verdictProblems(c) {
				t.Errorf("%s: %s", cs.path, p)
			}
			roles := map[string]int{}
			for j, vv := range cs.arr(c, "variants") {
				v := cs.obj(vv)
				name := cs.str(v, "name", true)
				vs := cs.at("/" + name)
				role := vs.str(v, "role", true)
				roles[role]++
				if j == 0 && role != "baseline" {
					t.Errorf("%s: first variant has role %q, want baseline", vs.path, role)
				}
				ns := vs.num(v, "ns_per_op", 0)
				ops := vs.num(v, "ops", 1)
				allocs := vs.num(v, "allocs", 0)
				apo := vs.num(v, "allocs_per_op", 0)
				if math.Abs(apo-allocs/ops) > 1e-9*math.Max(1, apo) {
					t.Errorf("%s: allocs_per_op %v, want allocs/ops = %v exactly", vs.path, apo, allocs/ops)
				}
				if med := vs.num(v, "ns_per_op_median", 0); med < ns {
					t.Errorf("%s: median %v below the fastest round %v", vs.path, med, ns)
				}
				vs.num(v, "noise", 0)
				vs.num(v, "cpu_ns_per_op_median", 0)
				vs.num(v, "rounds", 1)
				vs.num(v, "bytes_per_op", 0)
				vs.num(v, "first_allocs", 0)
				vs.num(v, "first_bytes", 0)
				vs.num(v, "gcs", 0)
				vs.num(v, "gcs_per_op", 0)
				vs.num(v, "errors", 0)
				misses, drops, rate := vs.num(v, "pool_misses", 0), vs.num(v, "pool_drops", 0), vs.num(v, "pool_miss_rate", 0)
				if want := math.Max(0, misses-drops) / ops; math.Abs(rate-want) > 1e-12 {
					t.Errorf("%s: pool_miss_rate %v, want (misses − drops) ÷ ops = %v", vs.path, rate, want)
				}
				counted := vs.boolean(v, "pool_misses_counted")
				if role == "baseline" && counted {
					t.Errorf("%s: a baseline with counted pool misses", vs.path)
				}
				if (id == "W1" || id == "W2") && role != "baseline" && !counted {
					t.Errorf("%s: pool misses not counted", vs.path)
				}
				if unsteady, _ := v["unsteady"].(string); (unsteady != "") != (counted && rate > report.MaxMissRate) {
					t.Errorf("%s: unsteady %q with miss rate %v", vs.path, unsteady, rate)
				}
				check := vs.str(v, "check", true)
				valid := vs.boolean(v, "valid")
				if cpu := vs.num(v, "cpu_ns_per_op", 0); top["timing"] == "cpu" && valid && cpu <= 0 {
					t.Errorf("%s: timing is cpu but cpu_ns_per_op is %v", vs.path, cpu)
				}
				speedup := vs.num(v, "speedup", 0)
				if valid != (check == "ok") {
					t.Errorf("%s: valid = %v with check %q", vs.path, valid, check)
				}
				if valid && (ns <= 0 || speedup <= 0) {
					t.Errorf("%s: valid with ns_per_op %v and speedup %v, want both positive", vs.path, ns, speedup)
				}
				if !valid {
					invalid[id+"/"+name] = true
				}
				if p, ok := v["published"]; ok {
					pm := vs.obj(p)
					vs.num(pm, "ns_per_op", 0)
					vs.num(pm, "speedup", 0)
				}
			}
			for _, r := range []string{"baseline", "sync.Pool", "reuse"} {
				if roles[r] == 0 {
					t.Errorf("%s lacks a %s variant", cs.path, r)
				}
			}
		}
	}
	// Every pitfall a workload declares is found in its usual code, and
	// the only variants that fail the check are those declared to.
	fails := map[string]string{}
	for _, d := range defs {
		for _, p := range d.Pitfalls {
			if pitfalls[d.ID+" "+p] == "" {
				t.Errorf("no %s finding in %s, which declares it", p, d.ID)
			}
		}
		for _, c := range d.Cases {
			for _, v := range c.Variants {
				if v.Fails != "" {
					fails[d.ID+"/"+v.Name] = v.Fails
				}
			}
		}
	}
	if len(fails) == 0 {
		t.Error("no variant is declared to fail its check; W10's drained gunzip must be")
	}
	for k, why := range fails {
		if !invalid[k] {
			t.Errorf("%s passed the check; it must fail it: %s", k, why)
		}
		delete(invalid, k)
	}
	for k := range invalid {
		t.Errorf("%s failed its check", k)
	}
}

func TestFilter(t *testing.T) {
	top, stdout, _ := runJSON(t, "-filter", "^W1[01]$|gzip")
	var ids []string
	for _, w := range top["workloads"].([]any) {
		ids = append(ids, w.(map[string]any)["id"].(string))
	}
	if got := strings.Join(ids, ","); got != "W9,W10,W11" {
		t.Errorf("-filter '^W1[01]$|gzip' ran %s, want W9,W10,W11", got)
	}
	if strings.Contains(stdout, "W1 make") {
		t.Errorf("filtered table shows W1:\n%s", stdout)
	}
}

// TestFilterExactID checks that an id selects that workload alone: W1 used
// to select W10 and W11 as well.
func TestFilterExactID(t *testing.T) {
	for _, tt := range []struct{ filter, want string }{
		{"W1", "W1"},
		{"W1|W10", "W1,W10"},
		{"gzip", "W9"},
		{"W1|gunzip", "W1,W10"},
	} {
		re := regexp.MustCompile(tt.filter)
		var ids []string
		for _, d := range report.Select(re) {
			ids = append(ids, d.ID)
		}
		if got := strings.Join(ids, ","); got != tt.want {
			t.Errorf("-filter %q selects %s, want %s", tt.filter, got, tt.want)
		}
	}
}

// TestHelp checks that -h prints the usage and exits 0: it used to exit 2.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var stdout, stderr bytes.Buffer
		err := run([]string{arg}, &stdout, &stderr)
		if code := exitCode(err); code != 0 {
			t.Errorf("%s: exit status %d (err %v), want 0", arg, code, err)
		}
		if !strings.Contains(stderr.String(), "usage: reuse") || !strings.Contains(stderr.String(), "-filter") {
			t.Errorf("%s: printed %q, want the usage with the flags", arg, stderr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("%s: wrote a report", arg)
		}
	}
	if code := exitCode(run([]string{"-nosuchflag"}, io.Discard, io.Discard)); code != 2 {
		t.Errorf("-nosuchflag: exit status %d, want 2", code)
	}
}

func TestBadArgs(t *testing.T) {
	for _, args := range [][]string{
		{"-filter", "("},
		{"-filter", "nothing-matches-this"},
		{"extra"},
		{"-nosuchflag"},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(args, &stdout, &stderr); err == nil {
			t.Errorf("run(%q) = nil error, want one", args)
		}
		if stdout.Len() > 0 {
			t.Errorf("run(%q) wrote a report", args)
		}
	}
}

func TestHTMLFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.html")
	var stdout, stderr bytes.Buffer
	if err := run(append(append([]string{"bench"}, quick...), "-filter", "W2", "-html", file), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v", err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("-html wrote %.200q, want a page with a chart", b)
	}
}

func TestNoProgressWhenNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Fatal("isTerminal(regular file) = true")
	}
	var stdout bytes.Buffer
	if err := run(append(append([]string(nil), quick...), "-filter", "W2"), &stdout, f); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("progress written to a regular file (%d bytes)", st.Size())
	}
}

func TestProgressLine(t *testing.T) {
	defs := report.Select(nil)
	var b bytes.Buffer
	p := progress(&b, defs)
	n := 9 * len(defs) // nine passes
	p(defs[0], 0, n, 0)
	if got, want := b.String(), fmt.Sprintf("[1/%d] pass 1 of 9, %s %s: estimating", n, defs[0].ID, defs[0].Name); !strings.Contains(got, want) {
		t.Errorf("first progress line = %q, want %q", got, want)
	}
	b.Reset()
	p(defs[1], 1, n, 2*time.Second)
	got := b.String()
	if !strings.Contains(got, fmt.Sprintf("[2/%d] pass 1 of 9, %s", n, defs[1].ID)) || !strings.Contains(got, "s left") {
		t.Errorf("second progress line = %q, want the pass, the workload and the time left", got)
	}
	b.Reset()
	p(defs[0], len(defs), n, 20*time.Second)
	if got := b.String(); !strings.Contains(got, fmt.Sprintf("[%d/%d] pass 2 of 9, %s", len(defs)+1, n, defs[0].ID)) {
		t.Errorf("first progress line of the second pass = %q", got)
	}
}

// verdictProblems returns every way a case's verdict, as the JSON has it,
// contradicts its own intervals: no verdict may be read as a success that
// the numbers deny.
func verdictProblems(c map[string]any) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	vd, _ := c["verdict"].(map[string]any)
	if vd == nil {
		return []string{"no verdict"}
	}
	anyInvalid := false
	for _, vv := range c["variants"].([]any) {
		v := vv.(map[string]any)
		if v["valid"] != true {
			anyInvalid = true
			continue
		}
		iv, _ := v["speedup_interval"].(map[string]any)
		if s := v["speedup"].(float64); iv == nil || s < iv["low"].(float64) || s > iv["high"].(float64) {
			bad("%s: speedup %v outside its interval %v", v["name"], s, iv)
		}
	}
	var baseLow, baseHigh float64
	for _, k := range []string{"headline", "baseline"} {
		cmp, _ := vd[k].(map[string]any)
		if cmp == nil {
			bad("no %s comparison", k)
			continue
		}
		st, _ := cmp["status"].(string)
		iv, _ := cmp["speedup"].(map[string]any)
		if iv == nil {
			bad("%s: no interval", k)
			continue
		}
		med, lo, hi, conf := iv["median"].(float64), iv["low"].(float64), iv["high"].(float64), iv["confidence"].(float64)
		if k == "baseline" {
			baseLow, baseHigh = lo, hi
		}
		if st != "not measured" && (lo > med || med > hi) {
			bad("%s: median %v outside [%v, %v]", k, med, lo, hi)
		}
		switch {
		case k == "headline" && cmp["against"] == "":
			// No sync.Pool variant to compare with.
		case st == "faster" && !(lo > 1 && conf >= 0.9):
			bad("%s: %q with interval [%v, %v] at %v", k, st, lo, hi, conf)
		case st == "slower" && !(hi < 1 && conf >= 0.9):
			bad("%s: %q with interval [%v, %v] at %v", k, st, lo, hi, conf)
		case st == "same within noise" && !(lo <= 1 && 1 <= hi && conf >= 0.9):
			bad("%s: %q with interval [%v, %v] at %v", k, st, lo, hi, conf)
		case st == "too few rounds" && conf >= 0.9:
			bad("%s: %q with confidence %v", k, st, conf)
		case st == "not measured" && !anyInvalid:
			bad("%s: %q though every variant passed its check", k, st)
		case st != "faster" && st != "slower" && st != "same within noise" && st != "too few rounds" && st != "not measured":
			bad("%s: unknown status %q", k, st)
		}
	}
	pub, _ := vd["published_speedup"].(float64)
	// The published ratio is set against the row that runs the
	// write-up's code, where one does (published_row).
	if m, _ := vd["published_measured"].(map[string]any); m != nil && vd["published_row"] != nil && vd["published_row"] != "" {
		baseLow, baseHigh = m["low"].(float64), m["high"].(float64)
	}
	// The side of 1 each lies on: +1 faster, -1 slower, 0 holds 1.
	side := func(lo, hi float64) int {
		switch {
		case lo > 1:
			return 1
		case hi < 1:
			return -1
		}
		return 0
	}
	reaches := pub > 0 && (pub >= 1 && baseHigh >= pub || pub < 1 && baseLow <= pub)
	switch r := vd["reproduction"]; r {
	case "reproduced":
		if pub <= 0 || side(baseLow, baseHigh) != side(pub, pub) || !reaches {
			bad("reproduced, but the interval [%v, %v] is not on the side of 1 of the published %v, or does not reach it", baseLow, baseHigh, pub)
		}
	case "reproduced, smaller here":
		if pub <= 0 || side(baseLow, baseHigh) != side(pub, pub) || reaches {
			bad("reproduced, smaller here, but the interval [%v, %v] is on the other side of 1 from the published %v, or reaches it", baseLow, baseHigh, pub)
		}
	case "not confirmed here":
		if pub <= 0 || side(baseLow, baseHigh) != 0 {
			bad("not confirmed, but the interval [%v, %v] does not hold 1", baseLow, baseHigh)
		}
	case "contradicted here":
		if pub <= 0 || side(baseLow, baseHigh)*side(pub, pub) != -1 {
			bad("contradicted, but the interval [%v, %v] is not on the other side of 1 from the published %v", baseLow, baseHigh, pub)
		}
	case "no published ratio":
		if pub != 0 {
			bad("no published ratio, but published_speedup is %v", pub)
		}
	case "published ratio not real", "not measured":
		if !anyInvalid && r == "published ratio not real" {
			bad("published ratio not real, but every variant passed its check")
		}
	default:
		bad("unknown reproduction %q", r)
	}
	return out
}

// TestVerdictProblems sees the check fail on verdicts that contradict
// their intervals, as the old report's did (W1 n=0 said "met" with reuse
// 2.4 times slower than make).
func TestVerdictProblems(t *testing.T) {
	variant := `{"name":"reuse","valid":true,"speedup":0.42,"speedup_interval":{"median":0.42,"low":0.4,"high":0.45,"confidence":0.96}}`
	for _, tt := range []struct{ name, verdict string }{
		{"faster below 1", `{"headline":{"against":"p","status":"faster","speedup":{"median":0.42,"low":0.4,"high":0.45,"confidence":0.96}},
			"baseline":{"against":"b","status":"same within noise","speedup":{"median":0.42,"low":0.4,"high":0.45,"confidence":0.96}},
			"reproduction":"no published ratio","published_speedup":0}`},
		{"reproduced below published", `{"headline":{"against":"p","status":"slower","speedup":{"median":0.42,"low":0.4,"high":0.45,"confidence":0.96}},
			"baseline":{"against":"b","status":"slower","speedup":{"median":0.42,"low":0.4,"high":0.45,"confidence":0.96}},
			"reproduction":"reproduced","published_speedup":2.0}`},
		{"reproduced the other way (W4)", `{"headline":{"against":"p","status":"slower","speedup":{"median":0.79,"low":0.69,"high":0.81,"confidence":0.96}},
			"baseline":{"against":"b","status":"faster","speedup":{"median":1.65,"low":1.35,"high":2.40,"confidence":0.96}},
			"reproduction":"reproduced","published_speedup":0.841}`},
		{"verdict from one round", `{"headline":{"against":"p","status":"slower","speedup":{"median":0.42,"low":0.42,"high":0.42,"confidence":0}},
			"baseline":{"against":"b","status":"slower","speedup":{"median":0.42,"low":0.42,"high":0.42,"confidence":0}},
			"reproduction":"no published ratio","published_speedup":0}`},
	} {
		var c map[string]any
		if err := json.Unmarshal([]byte(`{"variants":[`+variant+`],"verdict":`+tt.verdict+`}`), &c); err != nil {
			t.Fatal(err)
		}
		if len(verdictProblems(c)) == 0 {
			t.Errorf("%s: verdictProblems found nothing", tt.name)
		}
	}
}

// TestCompareCommand compares two real runs written with -json.
func TestCompareCommand(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"old.json", "new.json"} {
		file := filepath.Join(dir, name)
		if err := run(append(append([]string(nil), quick...), "-filter", "W2", "-json", file), io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"compare", files[0], files[1]}, &stdout, &stderr); err != nil {
		t.Fatalf("compare: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"old: ", "new: ", "W2 make([]byte, 1024)", "W2 reuse.Slices[byte]", "p=", "geomean", "reuse against sync.Pool written correctly"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("compare output lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	if err := run([]string{"compare", "-agree", files[0], files[0]}, &stdout, &stderr); err != nil {
		t.Fatalf("compare -agree of a run with itself: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "0 with disjoint intervals") || !strings.Contains(stdout.String(), "the runs agree") {
		t.Errorf("compare -agree of a run with itself:\n%s", stdout.String())
	}
	if got := exitCode(errDisagree); got != 1 {
		t.Errorf("exit status when runs disagree = %d, want 1", got)
	}
	for _, args := range [][]string{{"compare"}, {"compare", files[0]}, {"compare", files[0], filepath.Join(dir, "missing.json")}} {
		if err := run(args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) = nil error, want one", args)
		}
	}
}

// TestGCSweep runs a sweep over one small workload and checks that every
// setting was measured and is stated.
func TestGCSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs one workload under nine GC settings")
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("holds up to 128 MiB of ballast: too much for a wasm heap; the native run checks it")
	}
	top, stdout, _ := runJSON(t, "-filter", "W2", "-gc-sweep")
	pts, _ := top["gc_sweep"].([]any)
	if want := len(report.SweepGOGC) * len(report.SweepBallast); len(pts) != want {
		t.Fatalf("%d sweep points, want %d", len(pts), want)
	}
	seen := map[string]bool{}
	for _, pv := range pts {
		p := pv.(map[string]any)
		g := p["gc"].(map[string]any)
		key := fmt.Sprint(g["gogc"], "/", g["ballast"])
		seen[key] = true
		if live, ballast := g["live_heap"].(float64), g["ballast"].(float64); live < ballast {
			t.Errorf("setting %s: live heap %v below its ballast", key, live)
		}
		if s := p["speedup"].(float64); s <= 0 || s < p["low"].(float64) || s > p["high"].(float64) {
			t.Errorf("setting %s: speedup %v outside [%v, %v]", key, s, p["low"], p["high"])
		}
	}
	if len(seen) != len(pts) {
		t.Errorf("%d distinct settings in %d points", len(seen), len(pts))
	}
	if !strings.Contains(stdout, "GC sweep") || !strings.Contains(stdout, "GOGC=400") {
		t.Errorf("table lacks the sweep:\n%s", stdout)
	}
}

// TestAdviseRuns runs "reuse advise" end to end: the advise module, on a
// heap profile of this test process.
func TestAdviseRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the advise module")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	file := filepath.Join(t.TempDir(), "heap.pb.gz")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	if err := run([]string{"advise", "-json", file}, &stdout, &stderr); err != nil {
		t.Fatalf("advise: %v\n%s", err, stderr.String())
	}
	var a map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &a); err != nil {
		t.Fatalf("advise -json wrote %q: %v", stdout.String(), err)
	}
	if a["total_bytes"].(float64) <= 0 {
		t.Errorf("advise read no allocations: %v", a)
	}
	// An error is said once, by advise: the "exit status 2" that go run
	// adds after a failed program was printed twice, once by the go run
	// of advise and once by the go run of this command.
	stderr.Reset()
	if err := run([]string{"advise", filepath.Join(t.TempDir(), "missing")}, io.Discard, &stderr); err == nil {
		t.Error("advise on a missing file: nil error")
	}
	if msg := stderr.String(); !strings.Contains(msg, "no such file") || strings.Contains(msg, "exit status") {
		t.Errorf("advise on a missing file wrote %q, want the error once and no exit status", msg)
	}
}

// TestAdviseOutsideClone: the hint sent the user into reuse's clone, where
// advise took reuse's module for theirs (issue 60). It now says how to
// name their module, and that reuse's own is never taken for it.
func TestAdviseOutsideClone(t *testing.T) {
	_, err := findAdvise(t.TempDir(), filepath.Join(t.TempDir(), "main.go"))
	if err == nil {
		t.Fatal("adviseDir outside a clone: nil error")
	}
	for _, want := range []string{"cd reuse && go run ./cmd/reuse advise -module YOUR/MODULE PROFILE", "never reuse's own"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("adviseDir: %q lacks %q", err, want)
		}
	}
}

// TestAdviseFromUsersModule: a new user ran go run ../reuse/cmd/reuse
// advise from their own module, and was told there was no clone. The
// program is the clone's: advise is found from its own source.
func TestAdviseFromUsersModule(t *testing.T) {
	t.Chdir(t.TempDir())
	d, err := adviseDir()
	if err != nil {
		t.Fatalf("adviseDir from outside the clone, in a build of it: %v", err)
	}
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil || !strings.HasSuffix(filepath.ToSlash(d), adviseModule) {
		t.Errorf("adviseDir = %q, want the clone's %s", d, adviseModule)
	}
}
