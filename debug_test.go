//go:build reusedebug

package reuse_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/reusetest"
)

// dbgObj is big enough (64 bytes) to stay out of the tiny allocator, so
// that each one is collected on its own.
type dbgObj struct {
	n   int64 // 8 bytes where int has 32 bits too, so that pad starts at 8
	pad [56]byte
}

// misuses collects the reports of the debug build during a test.
type misuses struct {
	mu   sync.Mutex
	list []reuse.Misuse
}

// catchMisuse routes reports to the returned collector until t ends.
func catchMisuse(t *testing.T) *misuses {
	t.Helper()
	m := &misuses{}
	prev := reuse.SetMisuseHandler(func(x reuse.Misuse) {
		m.mu.Lock()
		m.list = append(m.list, x)
		m.mu.Unlock()
	})
	t.Cleanup(func() { reuse.SetMisuseHandler(prev) })
	return m
}

// of returns the reports of kind k whose text contains all of want.
func (m *misuses) of(k reuse.MisuseKind, want ...string) []reuse.Misuse {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []reuse.Misuse
next:
	for _, x := range m.list {
		if x.Kind != k {
			continue
		}
		for _, w := range want {
			if !strings.Contains(x.String(), w) {
				continue next
			}
		}
		out = append(out, x)
	}
	return out
}

func (m *misuses) all() []reuse.Misuse {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]reuse.Misuse(nil), m.list...)
}

// line returns the file:line of its caller, to find call sites in reports.
func line() string {
	_, file, n, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", file, n)
}

func TestDebugBuildIsOn(t *testing.T) {
	if !reuse.Debug || !debug.Enabled {
		t.Fatal("reuse.Debug is false in a build with -tags reusedebug")
	}
}

func TestDoublePutReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(put1, put2 *string) // does Get, Put, Put, recording the Put sites
	}{
		{"T=pointer", func(put1, put2 *string) {
			p := reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }}
			x := p.Get()
			*put1 = line()
			p.Put(x)
			*put2 = line()
			p.Put(x)
		}},
		{"T=slice", func(put1, put2 *string) {
			p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 0, 64) }}
			x := p.Get()
			*put1 = line()
			p.Put(x)
			*put2 = line()
			p.Put(x[:0])
		}},
		{"T=map", func(put1, put2 *string) {
			p := reuse.Pool[map[int]int]{New: func() map[int]int { return map[int]int{} }, Reset: func(m map[int]int) { clear(m) }}
			x := p.Get()
			*put1 = line()
			p.Put(x)
			*put2 = line()
			p.Put(x)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := catchMisuse(t)
			var put1, put2 string
			tc.run(&put1, &put2)
			got := m.all()
			if len(got) != 1 || got[0].Kind != reuse.DoublePut {
				t.Fatalf("reports = %v, want one double Put", got)
			}
			msg := got[0].String()
			// The sites are the lines after line(): bump the line numbers.
			for _, site := range []string{bump(put1), bump(put2)} {
				if !strings.Contains(msg, site) {
					t.Errorf("report does not name Put site %s:\n%s", site, msg)
				}
			}
			// Both stacks start in the caller's code, not in Put's.
			for _, want := range []string{"reuse: double Put on *reuse.Pool[",
				"first Put:\n\tgithub.com/reuse-go/reuse_test.TestDoublePutReported.",
				"second Put:\n\tgithub.com/reuse-go/reuse_test.TestDoublePutReported."} {
				if !strings.Contains(msg, want) {
					t.Errorf("report lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

// bump returns file:line+1 for a file:line.
func bump(site string) string {
	i := strings.LastIndexByte(site, ':')
	var n int
	fmt.Sscan(site[i+1:], &n)
	return fmt.Sprintf("%s:%d", site[:i], n+1)
}

func TestDoublePutNotStoredTwice(t *testing.T) {
	reusetest.KeepPooled(t)
	m := catchMisuse(t)
	p := reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }}
	x := p.Get()
	p.Put(x)
	p.Put(x)
	if len(m.of(reuse.DoublePut)) != 1 {
		t.Fatalf("reports = %v, want one double Put", m.all())
	}
	a, b := p.Get(), p.Get()
	if a != x {
		t.Fatalf("Get after Put returned %p, want the object put back, %p", a, x)
	}
	if b == x {
		t.Errorf("second Get returned the double-Put object again: it was stored twice")
	}
	p.Put(a)
	p.Put(b)
}

func TestDefaultPanics(t *testing.T) {
	prev := reuse.SetMisuseHandler(nil)
	defer func() { reuse.SetMisuseHandler(prev) }()
	p := reuse.Pool[*dbgObj]{}
	x := new(dbgObj)
	p.Put(x)
	defer func() {
		r := recover()
		s, _ := r.(string)
		for _, want := range []string{"reuse: double Put on *reuse.Pool[*github.com/reuse-go/reuse_test.dbgObj] at 0x", "first Put:", "second Put:", "debug_test.go"} {
			if !strings.Contains(s, want) {
				t.Errorf("panic value lacks %q:\n%v", want, r)
			}
		}
	}()
	p.Put(x)
	t.Error("double Put did not panic with the default handler")
}

func TestSetMisuseHandlerReturnsPrevious(t *testing.T) {
	var calls []string
	f := func(reuse.Misuse) { calls = append(calls, "f") }
	g := func(reuse.Misuse) { calls = append(calls, "g") }
	orig := reuse.SetMisuseHandler(f)
	defer func() { reuse.SetMisuseHandler(orig) }()
	prev := reuse.SetMisuseHandler(g)
	prev(reuse.Misuse{})
	if fmt.Sprint(calls) != "[f]" {
		t.Errorf("calling what SetMisuseHandler(g) returned ran %v, want f", calls)
	}
	if back := reuse.SetMisuseHandler(nil); back == nil {
		t.Error("SetMisuseHandler(nil) returned nil, want g")
	}
	if back := reuse.SetMisuseHandler(f); back != nil {
		t.Error("SetMisuseHandler after nil returned non-nil, want nil (the default)")
	}
}

func TestUseAfterPutReported(t *testing.T) {
	reusetest.KeepPooled(t)
	for _, tc := range []struct {
		name  string
		run   func(write *string) // Get, Put, write, Get
		where string
	}{
		{"T=pointer/write=field", func(write *string) {
			p := reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }, Reset: func(o *dbgObj) { *o = dbgObj{} }}
			x := p.Get()
			p.Put(x)
			*write = line()
			x.n = 42 // after Put
			p.Put(p.Get())
		}, "byte 0 of its 64 bytes changed after Put"},
		{"T=pointer/write=pad", func(write *string) {
			p := reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }}
			x := p.Get()
			p.Put(x)
			*write = line()
			x.pad[3] = 1
			p.Put(p.Get())
		}, "byte 11 of its 64 bytes changed"},
		{"T=slice/write=element", func(write *string) {
			p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 0, 100) }}
			x := p.Get()
			x = append(x, "hello"...)
			p.Put(x[:0])
			*write = line()
			x[2] = 'X' // a stale slice still writes into the pooled array
			p.Put(p.Get())
		}, "byte 2 of its 100 bytes changed after Put (0x6c at Put, 0x58 now)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := catchMisuse(t)
			var write string
			tc.run(&write)
			got := m.all()
			if len(got) != 1 || got[0].Kind != reuse.UseAfterPut {
				t.Fatalf("reports = %v, want one use after Put", got)
			}
			if msg := got[0].String(); !strings.Contains(msg, tc.where) || !strings.Contains(msg, "Put:") || !strings.Contains(msg, "next Get:") {
				t.Errorf("report lacks %q or the stacks:\n%s", tc.where, msg)
			}
		})
	}
}

func TestCorrectUseReportsNothing(t *testing.T) {
	m := catchMisuse(t)
	ptrs := reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }, Reset: func(o *dbgObj) { *o = dbgObj{} }}
	slices := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 0, 16) }, Reset: func(s []byte) { clear(s[:cap(s)]) }}
	maps := reuse.Pool[map[string]int]{New: func() map[string]int { return map[string]int{} }, Reset: func(m map[string]int) { clear(m) }}
	values := reuse.Pool[dbgObj]{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				o := ptrs.Get()
				o.n = int64(i)
				ptrs.Put(o)
				s := slices.Get()
				s = append(s, "some bytes that grow the slice past 16"...)
				slices.Put(s[:0])
				mp := maps.Get()
				mp["k"] = g
				maps.Put(mp)
				v := values.Get()
				v.n++
				values.Put(v)
				// Put without Get, and a dropped nil, are fine too.
				ptrs.Put(new(dbgObj))
				ptrs.Put(nil)
			}
		}()
	}
	wg.Wait()
	reusetest.Collect()
	reusetest.Collect()
	if got := m.all(); len(got) != 0 {
		t.Errorf("correct use reported %d misuses, first:\n%s", len(got), got[0])
	}
}

// leakSite is where dbgLeak takes the objects it leaks.
var leakSite string

//go:noinline
func dbgLeak(p *reuse.Pool[*dbgObj], k int) []weak.Pointer[dbgObj] {
	var ws []weak.Pointer[dbgObj]
	for range k {
		leakSite = bump(line())
		ws = append(ws, weak.Make(p.Get())) // taken, never Put
	}
	return ws
}

//go:noinline
func dbgReturn(p *reuse.Pool[*dbgObj], k int) []weak.Pointer[dbgObj] {
	var ws []weak.Pointer[dbgObj]
	var xs []*dbgObj
	for range k {
		x := p.Get()
		ws = append(ws, weak.Make(x))
		xs = append(xs, x)
	}
	for _, x := range xs {
		p.Put(x)
	}
	return ws
}

// TestLeaksReportedAndNothingPinned proves leak detection against the
// garbage collector: the k objects kept out are reported with their Get site
// within a deadline, the ones Put back are not, and every object, leaked or
// pooled, is still collected (the bookkeeping pins nothing), its record gone.
func TestLeaksReportedAndNothingPinned(t *testing.T) {
	if !debug.Leaks {
		t.Skip("leak detection is off on this platform")
	}
	const k = 5
	m := catchMisuse(t)
	before := debug.Tracked()
	p := &reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }}
	leaked := dbgLeak(p, k)
	returned := dbgReturn(p, 2*k)

	reusetest.CollectUntil(t, "the leak reports", func() bool { return len(m.of(reuse.Leak, leakSite)) >= k })
	if got := m.of(reuse.Leak, leakSite); len(got) != k {
		t.Fatalf("leak reports naming %s: %d, want %d; all reports: %v", leakSite, len(got), k, m.all())
	}
	poolName := fmt.Sprintf("*reuse.Pool[*github.com/reuse-go/reuse_test.dbgObj] at %p", p)
	for _, r := range m.of(reuse.Leak, leakSite) {
		if r.Pool != poolName || !strings.Contains(r.Detail, "taken by reuse.Pool.Get at "+leakSite+" and collected without being given back") {
			t.Errorf("leak report: pool %q detail %q, want pool %q and the Get site %s", r.Pool, r.Detail, poolName, leakSite)
		}
	}
	// The pool itself keeps up to one value per P in its slots while it lives
	// (see Retention in the package docs); drop it, so that after two
	// collections nothing but the bookkeeping could still hold an object.
	p = nil
	reusetest.CollectUntil(t, "every object and record collected", func() bool {
		return alive(leaked) == 0 && alive(returned) == 0 && debug.Tracked() <= before
	})
	if n := alive(leaked); n > 0 {
		t.Errorf("%d leaked objects still alive: pinned by the bookkeeping", n)
	}
	if n := alive(returned); n > 0 {
		t.Errorf("%d pooled objects still alive after the pool was collected: pinned by the bookkeeping", n)
	}
	if n := debug.Tracked(); n > before {
		t.Errorf("%d records left after their objects were collected, want %d", n, before)
	}
	if got := len(m.of(reuse.Leak)); got != k {
		t.Errorf("%d leak reports, want %d (only the objects kept out): %v", got, k, m.all())
	}
}

func alive(ws []weak.Pointer[dbgObj]) int {
	n := 0
	for _, w := range ws {
		if w.Value() != nil {
			n++
		}
	}
	return n
}
