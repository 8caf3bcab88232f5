//go:build reusedebug

package bytebuf_test

import (
	"bytes"
	"io"
	"runtime"
	rdebug "runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

// The debug build's checks on bytebuf.Pool (-tags reusedebug).

type dbgReports struct {
	mu   sync.Mutex
	list []reuse.Misuse
}

func dbgCatch(t *testing.T) *dbgReports {
	t.Helper()
	r := &dbgReports{}
	prev := reuse.SetMisuseHandler(func(m reuse.Misuse) {
		r.mu.Lock()
		r.list = append(r.list, m)
		r.mu.Unlock()
	})
	t.Cleanup(func() { reuse.SetMisuseHandler(prev) })
	return r
}

func (r *dbgReports) all() []reuse.Misuse {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]reuse.Misuse(nil), r.list...)
}

// dbgSame makes the next Get return what the last Put stored: no collection,
// one P, no race detector (which drops Puts on purpose).
func dbgSame(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	gc := rdebug.SetGCPercent(-1)
	procs := runtime.GOMAXPROCS(1)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		rdebug.SetGCPercent(gc)
	})
}

func TestDebugDoublePut(t *testing.T) {
	r := dbgCatch(t)
	var p bytebuf.Pool
	b := p.Get()
	b.WriteString("body")
	p.Put(b)
	p.Put(b) // a retry path putting the request body back again
	got := r.all()
	if len(got) != 1 || got[0].Kind != reuse.DoublePut || !strings.HasPrefix(got[0].Pool, "*bytebuf.Pool at 0x") ||
		strings.Count(got[0].Stacks, "bytebuf_test.TestDebugDoublePut") != 2 {
		t.Fatalf("reports %v, want one double Put on *bytebuf.Pool with both Put stacks", got)
	}
}

func TestDebugUseAfterPut(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after func(b *bytebuf.Buffer, stale []byte) // runs after Put
		want  string
		// gets is the Get that hands b out again: a growth after Put
		// gives b's old array to a Buffer of its own, kept above b with
		// that capacity, so the second Get is b.
		gets int
		// warm is the number of Get, Write and Put before: on a warm pool
		// Put keeps b on its P's stack, not on a shelf.
		warm int
	}{
		// A write through a slice kept past Put cannot be caught at the
		// write: the next Get of its array finds it. (A Buffer method is
		// caught at the call: TestDebugMethodAfterPut.)
		{"write=stale-slice", func(_ *bytebuf.Buffer, stale []byte) { stale[1] = 'x' }, "byte 1 of", 1, 0},
		// A new user's try found this one missed once the pool was warm:
		// Put's per-P stack kept b before it was poisoned.
		{"write=stale-slice/warm", func(_ *bytebuf.Buffer, stale []byte) { stale[1] = 'x' }, "byte 1 of", 1, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbgSame(t)
			r := dbgCatch(t)
			var p bytebuf.Pool
			for range tc.warm {
				w := p.Get()
				w.WriteString("warm-up")
				p.Put(w)
			}
			b := p.Get()
			b.WriteString("hello")
			stale := b.Bytes()
			p.Put(b)
			// A stale reader sees poison, not the next user's data.
			if !bytes.Equal(stale, debug.Pattern[:]) && !bytes.Equal(stale, []byte{0xDE, 0xAD, 0xBE, 0xEF, 0xDE}) {
				t.Errorf("stale Bytes after Put = %q, want poison", stale)
			}
			tc.after(b, stale)
			for i := range tc.gets {
				c := p.Get()
				defer p.Put(c)
				if i == tc.gets-1 && c != b {
					t.Fatalf("Get %d after Put returned another Buffer; the test needs the same one", i+1)
				}
			}
			got := r.all()
			if len(got) != 1 || got[0].Kind != reuse.UseAfterPut || !strings.Contains(got[0].Detail, tc.want) {
				t.Fatalf("reports %v, want one use after Put saying %q", got, tc.want)
			}
		})
	}
}

// A Buffer that grew gives its large array back at Put: a stale slice of it
// sees poison too.
func TestDebugGrownArrayPoisoned(t *testing.T) {
	r := dbgCatch(t)
	var p bytebuf.Pool
	b := p.Get()
	b.Write(make([]byte, 1<<20))
	stale := b.Bytes()
	p.Put(b)
	if !bytes.Equal(stale[:8], []byte{0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF}) {
		t.Errorf("stale Bytes of a grown Buffer after Put = % x, want poison", stale[:8])
	}
	if got := r.all(); len(got) != 0 {
		t.Errorf("reports %v, want none", got)
	}
}

//go:noinline
func dbgLeak(p *bytebuf.Pool, k int) []weak.Pointer[bytebuf.Buffer] {
	var ws []weak.Pointer[bytebuf.Buffer]
	for range k {
		b := p.Get() // dbgLeak: never Put
		b.WriteString("x")
		ws = append(ws, weak.Make(b))
	}
	return ws
}

func TestDebugLeaks(t *testing.T) {
	if !debug.Leaks {
		t.Skip("leak detection is off on this platform")
	}
	const k = 3
	r := dbgCatch(t)
	var p bytebuf.Pool
	leaked := dbgLeak(&p, k)
	for range 5 {
		b := p.Get()
		b.WriteString("returned")
		p.Put(b)
	}
	leaks := func() (n int) {
		for _, m := range r.all() {
			if m.Kind == reuse.Leak && strings.Contains(m.Stacks, "bytebuf_test.dbgLeak") {
				n++
			}
		}
		return n
	}
	reusetest.CollectUntil(t, "the leak reports", func() bool { return leaks() >= k })
	if n := leaks(); n != k || len(r.all()) != k {
		t.Fatalf("%d leak reports from dbgLeak, %d reports in all, want %d and %d: %v", n, len(r.all()), k, k, r.all())
	}
	for _, w := range leaked {
		if w.Value() != nil {
			t.Error("a leaked Buffer is still alive after its leak was reported")
		}
	}
}

func TestDebugCorrectUseReportsNothing(t *testing.T) {
	r := dbgCatch(t)
	var p bytebuf.Pool
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3000 {
				b := p.Get()
				n := 100
				if (i+g)%50 == 0 {
					n = 100 << 10 // now and then a large one, which grows the Buffer
				}
				b.Write(make([]byte, n))
				if len(b.Bytes()) != n {
					t.Errorf("Bytes() has %d bytes, want %d", len(b.Bytes()), n)
				}
				p.Put(b)
			}
		}()
	}
	wg.Wait()
	reusetest.Collect()
	reusetest.Collect()
	if got := r.all(); len(got) != 0 {
		t.Errorf("correct use: %d reports, first: %v", len(got), got[0])
	}
}

// TestDebugMethodAfterPut: every Buffer method called after Put, before the
// pool hands the Buffer out again, is reported at the call, on the caller's
// goroutine, naming the method, with the caller's line as the site and
// stacks that start in the caller's code. It used to be found, for writes
// only, at the next Get, on whichever goroutine made it.
func TestDebugMethodAfterPut(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	for _, tc := range []struct {
		method string
		call   func(b *bytebuf.Buffer)
	}{
		{"Write", func(b *bytebuf.Buffer) { b.Write([]byte("oops")) }},
		{"WriteString", func(b *bytebuf.Buffer) { b.WriteString("oops") }},
		{"WriteByte", func(b *bytebuf.Buffer) { b.WriteByte('!') }},
		{"WriteRune", func(b *bytebuf.Buffer) { b.WriteRune('é') }},
		{"ReadFrom", func(b *bytebuf.Buffer) { b.ReadFrom(strings.NewReader("oops")) }},
		{"WriteTo", func(b *bytebuf.Buffer) { b.WriteTo(io.Discard) }},
		{"Len", func(b *bytebuf.Buffer) { _ = b.Len() }},
		{"Cap", func(b *bytebuf.Buffer) { _ = b.Cap() }},
		{"Bytes", func(b *bytebuf.Buffer) { _ = b.Bytes() }},
		{"String", func(b *bytebuf.Buffer) { _ = b.String() }},
		{"AvailableBuffer", func(b *bytebuf.Buffer) { _ = b.AvailableBuffer() }},
		{"Reset", func(b *bytebuf.Buffer) { b.Reset() }},
		{"Truncate", func(b *bytebuf.Buffer) { b.Truncate(0) }},
		{"Grow", func(b *bytebuf.Buffer) { b.Grow(8) }},
		{"AppendInt", func(b *bytebuf.Buffer) { b.AppendInt(-1) }},
		{"AppendUint", func(b *bytebuf.Buffer) { b.AppendUint(1) }},
		{"AppendFloat", func(b *bytebuf.Buffer) { b.AppendFloat(1.5, 'g', -1, 64) }},
		{"AppendBool", func(b *bytebuf.Buffer) { b.AppendBool(true) }},
		{"AppendQuote", func(b *bytebuf.Buffer) { b.AppendQuote("q") }},
		{"AppendTime", func(b *bytebuf.Buffer) { b.AppendTime(time.Time{}, time.RFC3339) }},
	} {
		t.Run(tc.method, func(t *testing.T) {
			r := dbgCatch(t)
			var p bytebuf.Pool
			b := p.Get()
			b.WriteString("hello")
			p.Put(b)
			tc.call(b)
			got := r.all()
			if len(got) != 1 || got[0].Kind != reuse.UseAfterPut {
				t.Fatalf("reports at the call %v, want one use after Put", got)
			}
			m := got[0]
			if want := "bytebuf: Buffer." + tc.method + " called at "; !strings.Contains(m.Detail, want) {
				t.Errorf("Detail %q, want it to say %q", m.Detail, want)
			}
			// The table's closure is the caller's first frame.
			if !strings.HasPrefix(m.Site, file+":") {
				t.Errorf("Site %q, want a line of %s", m.Site, file)
			}
			for _, label := range []string{"use:\n", "Put:\n"} {
				i := strings.Index(m.Stacks, label)
				if i < 0 || !strings.HasPrefix(m.Stacks[i+len(label):], "\tgithub.com/reuse-go/reuse/bytebuf_test.TestDebugMethodAfterPut.") {
					t.Errorf("stack %q does not start in the test:\n%s", label, m.Stacks)
				}
			}
		})
	}
	// Without a handler, the default panics there, on this goroutine.
	var p bytebuf.Pool
	b := p.Get()
	p.Put(b)
	defer func() {
		if msg, _ := recover().(string); !strings.HasPrefix(msg, "reuse: use after Put on *bytebuf.Pool at 0x") ||
			!strings.Contains(msg, "bytebuf: Buffer.WriteString called at "+file) {
			t.Errorf("WriteString after Put: recovered %q, want a panic naming the method and this file", msg)
		}
	}()
	b.WriteString("oops")
}
