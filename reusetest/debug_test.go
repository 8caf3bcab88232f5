//go:build reusedebug

package reusetest_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// recordTB records Errorf calls and cleanups instead of acting on them.
type recordTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *recordTB) Helper() {}
func (r *recordTB) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recordTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

func (r *recordTB) end() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func TestFailOnMisuseRoutesToErrorf(t *testing.T) {
	outer := 0
	prev := reuse.SetMisuseHandler(func(reuse.Misuse) { outer++ })
	defer func() { reuse.SetMisuseHandler(prev) }()

	rt := &recordTB{TB: t}
	reusetest.FailOnMisuse(rt)
	var p reuse.Pool[*[64]byte]
	x := new([64]byte)
	p.Put(x)
	p.Put(x)
	if len(rt.errors) != 1 || !strings.HasPrefix(rt.errors[0], "reuse: double Put on *reuse.Pool[*[64]byte]") {
		t.Fatalf("FailOnMisuse: Errorf calls %q, want one double Put", rt.errors)
	}
	if outer != 0 {
		t.Errorf("the previous handler got %d reports while FailOnMisuse was in place, want 0", outer)
	}
	rt.end()
	p.Put(x)
	if outer != 1 || len(rt.errors) != 1 {
		t.Errorf("after the test ended: previous handler got %d reports (want 1), Errorf %d calls (want still 1)", outer, len(rt.errors))
	}
}

func TestFailOnMisuseSilentOnCorrectUse(t *testing.T) {
	rt := &recordTB{TB: t}
	reusetest.FailOnMisuse(rt)
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	for range 100 {
		x := p.Get()
		x[0]++
		p.Put(x)
	}
	rt.end()
	if len(rt.errors) != 0 {
		t.Errorf("correct use: Errorf calls %q, want none", rt.errors)
	}
}

// leakOne takes an object and drops it.
//
//go:noinline
func leakOne(p *reuse.Pool[*[64]byte]) {
	x := p.Get()
	x[1] = 1
}

func TestFailOnMisuseFlushesLeaksAtEnd(t *testing.T) {
	rt := &recordTB{TB: t}
	reusetest.FailOnMisuse(rt)
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	leakOne(&p)
	rt.end() // collects and waits for the leak report before restoring
	if len(rt.errors) != 1 || !strings.Contains(rt.errors[0], "reuse: leak on") || !strings.Contains(rt.errors[0], "reusetest_test.leakOne") {
		t.Errorf("leak during the test: Errorf calls %q, want one leak naming leakOne", rt.errors)
	}
}

func TestIgnoreLeaks(t *testing.T) {
	var outer []reuse.Misuse
	prev := reuse.SetMisuseHandler(func(m reuse.Misuse) { outer = append(outer, m) })
	defer func() { reuse.SetMisuseHandler(prev) }()

	rt := &recordTB{TB: t}
	reusetest.IgnoreLeaks(rt)
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	leakOne(&p)
	x := p.Get()
	p.Put(x)
	p.Put(x) // still reported, to the handler in place before
	rt.end()
	if len(outer) != 1 || outer[0].Kind != reuse.DoublePut {
		t.Errorf("IgnoreLeaks: outer handler got %v, want the double Put only", outer)
	}
}

var kept *[64]byte

func TestScopeClosedLeaksGoNowhere(t *testing.T) {
	var outer []reuse.Misuse
	var mu sync.Mutex
	prev := reuse.SetMisuseHandler(func(m reuse.Misuse) { mu.Lock(); outer = append(outer, m); mu.Unlock() })
	defer func() { reuse.SetMisuseHandler(prev) }()

	rt := &recordTB{TB: t}
	reusetest.FailOnMisuse(rt)
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	kept = p.Get() // still referenced when the test ends: found late
	rt.end()
	kept = nil
	for range 5 {
		reusetest.Collect()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(rt.errors) != 0 || len(outer) != 0 {
		t.Errorf("a leak found after its test ended went to Errorf %q / the next handler %v, want neither (stderr only)", rt.errors, outer)
	}
}

// TestLeakGoesToHandlerAtGet takes an object under the program's handler,
// drops it, and lets the collector find it while a test's handler is in
// place: the report goes to the program's handler, not to that test.
func TestLeakGoesToHandlerAtGet(t *testing.T) {
	var mu sync.Mutex
	var outer []reuse.Misuse
	prev := reuse.SetMisuseHandler(func(m reuse.Misuse) { mu.Lock(); outer = append(outer, m); mu.Unlock() })
	defer func() { reuse.SetMisuseHandler(prev) }()
	p := reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	leakOne(&p) // taken under the program's handler
	rt := &recordTB{TB: t}
	reusetest.FailOnMisuse(rt) // another test starts
	rt.end()                   // collects while its handler is in place
	reusetest.CollectUntil(t, "the leak at the program's handler", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(outer) == 1
	})
	if len(rt.errors) != 0 {
		t.Errorf("a leak taken before the test began failed it: %q", rt.errors)
	}
}

// TestFailOnMisuseNamesTheCallersLine runs itself in a child process, where
// a double Put under FailOnMisuse fails a real *testing.T, and reads what
// the testing package printed: the failure must be located at the second
// Put's line, as t.Errorf locates a test's own failures. It was located at
// reusetest's debug.go, the line of FailOnMisuse's call to t.Errorf.
func TestFailOnMisuseNamesTheCallersLine(t *testing.T) {
	if os.Getenv("REUSETEST_CHILD") == "1" {
		reusetest.FailOnMisuse(t)
		var p reuse.Pool[*[64]byte]
		x := new([64]byte)
		p.Put(x)
		_, _, line, _ := runtime.Caller(0)
		p.Put(x) // line+1
		fmt.Printf("second Put at line %d\n", line+1)
		return
	}
	if _, ok := any(t).(interface{ Output() io.Writer }); !ok {
		t.Skip("testing.T has no Output before Go 1.25: FailOnMisuse uses Errorf")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFailOnMisuseNamesTheCallersLine$", "-test.v")
	cmd.Env = append(os.Environ(), "REUSETEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed; want it failed by its double Put:\n%s", out)
	}
	var line int
	for _, l := range strings.Split(string(out), "\n") {
		fmt.Sscanf(l, "second Put at line %d", &line)
	}
	if want := fmt.Sprintf("    debug_test.go:%d: reuse: double Put on ", line); line == 0 || !strings.Contains(string(out), want) {
		t.Errorf("the child's output does not contain %q:\n%s", want, out)
	}
}
