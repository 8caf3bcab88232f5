package main

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

func TestDominates(t *testing.T) {
	ref := result{NsPerOp: 100, PeakHeap: 1000}
	for _, c := range []struct {
		m    result
		want bool
	}{
		{result{NsPerOp: 90, PeakHeap: 1000}, true},
		{result{NsPerOp: 90.1, PeakHeap: 1000}, false},
		{result{NsPerOp: 50, PeakHeap: 1001}, false},
		{result{NsPerOp: 50, PeakHeap: 0}, true},
	} {
		if got := dominates(c.m, ref); got != c.want {
			t.Errorf("dominates(%+v, %+v) = %v, want %v", c.m, ref, got, c.want)
		}
	}
}

func TestOpsFor(t *testing.T) {
	small := shapes.Shape{Lengths: make([]int, shapes.Len)}
	big := shapes.Shape{Lengths: make([]int, shapes.Len)}
	for i := range small.Lengths {
		small.Lengths[i], big.Lengths[i] = 100, 64<<10
	}
	for _, c := range []struct {
		s      shapes.Shape
		ops    int
		budget int64
		want   int
	}{
		{small, 0, 512 << 20, shapes.Len},
		{big, 0, 512 << 20, 8192},
		{big, 0, 1, 4096},
		{big, 100, 1, 100},
	} {
		if got := opsFor(c.s, c.ops, c.budget); got != c.want {
			t.Errorf("opsFor(mean %d, %d, %d) = %d, want %d", c.s.Lengths[0], c.ops, c.budget, got, c.want)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "64KiB": 64 << 10, "1GiB": 1 << 30, "1000": 1000} {
		if got, err := parseBytes(in); got != want || err != nil {
			t.Errorf("parseBytes(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1KiB", "1.5MiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q): no error", in)
		}
	}
}

// TestMeasureHandsOn: every peer's ops hand on every byte they write, in
// both passes, and the figures are taken; with one goroutine per P, the
// goroutines together run through the same lengths as one does.
func TestMeasureHandsOn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	// The first ops lengths are short, the others long: a goroutine that
	// ran through others would hand on more.
	s := shapes.Shape{Name: "test", Piece: 64, Lengths: make([]int, shapes.Len)}
	const ops = 4096
	var want int64
	for i := range s.Lengths {
		s.Lengths[i] = 2000
		if i < ops {
			s.Lengths[i] = 1 + i%300
			want += int64(s.Lengths[i])
		}
	}
	for _, p := range peers {
		for _, parallel := range []bool{false, true} {
			before := total.n
			r := p.measure(run{shape: s, ops: ops, parallel: parallel, inFlight: 4, sample: 64})
			if got := total.n - before; got != 2*want {
				t.Errorf("%s, parallel %v: handed on %d bytes, want %d (two passes of %d)", p.name, parallel, got, 2*want, want)
			}
			if r.NsPerOp <= 0 || r.CapWritten < 1 || r.Samples < 2*ops/3/64 {
				t.Errorf("%s, parallel %v: figures %+v: want time > 0, cap/written >= 1, %d samples or more",
					p.name, parallel, r, 2*ops/3/64)
			}
		}
	}
}

func TestShownArgs(t *testing.T) {
	got := strings.Join(shownArgs([]string{"-cpu", "1,2", "-md", "x.md", "--json=x.json", "-rounds=3", "-brief", "b.md"}), " ")
	if want := "-cpu 1,2 -rounds=3"; got != want {
		t.Errorf("shownArgs = %q, want %q", got, want)
	}
}

// TestLengthen: a pass shorter than -minpass doubles its ops, up to
// maxPasses runs of the lengths; -minpass 0 or a pass long enough keeps them.
func TestLengthen(t *testing.T) {
	s := shapes.Shape{Name: "test", Piece: 64, Lengths: make([]int, shapes.Len)}
	for i := range s.Lengths {
		s.Lengths[i] = 100
	}
	r := run{shape: s, ops: 4096, inFlight: 4, sample: 64}
	for _, c := range []struct {
		minPass time.Duration
		want    int
	}{
		{0, 4096},
		{time.Nanosecond, 4096},
		{time.Hour, maxPasses * shapes.Len},
	} {
		if got := lengthen(r, c.minPass); got != c.want {
			t.Errorf("lengthen(4096 ops, %v) = %d, want %d", c.minPass, got, c.want)
		}
	}
}

// TestSummaryTwin: a row that only the A/A twin dominates is not counted as
// dominated by a peer, and the summary gives the twin's count apart.
func TestSummaryTwin(t *testing.T) {
	ref := result{NsPerOp: 100, PeakHeap: 1 << 20}
	fast := result{NsPerOp: 80, PeakHeap: 1 << 20}
	slow := result{NsPerOp: 100, PeakHeap: 1 << 20}
	mk := func(zap, tw result) *row {
		rw := &row{Shape: "s", Mode: "serial", Procs: 1, Results: map[string][]result{
			reference: {ref}, "zap": {zap}, twin: {tw}}}
		judge(rw, []string{"zap", reference, twin})
		return rw
	}
	rep := &report{Peers: []string{"zap", reference, twin}, Rows: []*row{mk(slow, fast), mk(fast, slow), mk(slow, slow)}}
	var sb strings.Builder
	writeSummary(&sb, rep, "##")
	got := sb.String()
	for _, want := range []string{"**1 of 3 rows dominated**; rows by peer: zap 1;", "dominates bytebuf on 1 rows"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary %q: no %q", got, want)
		}
	}
}

// rowsSaved is the progress writer of TestSavesEveryRow: at each row's line,
// it reads the JSON the run saved and notes how many rows it holds.
type rowsSaved struct {
	path string
	seen []int
	err  error
}

func (w *rowsSaved) Write(p []byte) (int, error) {
	b, err := readMaybeGzip(w.path)
	var rep report
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	w.err = cmp.Or(w.err, err)
	w.seen = append(w.seen, len(rep.Rows))
	return len(p), nil
}

// TestSavesEveryRow checks that a run saves its JSON after every row, so that
// a run stopped early keeps the rows it finished.
func TestSavesEveryRow(t *testing.T) {
	dir := t.TempDir()
	w := &rowsSaved{path: filepath.Join(dir, "uv.json.gz")}
	args := []string{"-shapes", "tight", "-modes", "serial", "-cpu", "1,2", "-rounds", "1", "-ops", "4096",
		"-peers", "zap", "-json", w.path, "-md", filepath.Join(dir, "uv.md")}
	if err := mainErr(args, w); err != nil {
		t.Fatal(err)
	}
	if w.err != nil || !slices.Equal(w.seen, []int{1, 2}) {
		t.Fatalf("rows saved at each row's line: %v (err %v), want [1 2]", w.seen, w.err)
	}
}
