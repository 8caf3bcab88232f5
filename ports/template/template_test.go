package template_test

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	rdebug "runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasttemplate"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/ports/template"
	"github.com/reuse-go/reuse/reusetest"
)

var cases = []struct {
	tmpl string
	m    map[string]any
}{
	{"", nil},
	{"no tags here", map[string]any{"x": "y"}},
	{"{{a}}", map[string]any{"a": "A"}},
	{"hello, {{name}}! you have {{n}} new {{what}}.", map[string]any{"name": "Ann", "n": []byte("3"), "what": "messages"}},
	{"{{missing}} and {{nil}} vanish", map[string]any{"nil": nil}},
	{"{{a}}{{a}}{{b}}", map[string]any{"a": strings.Repeat("x", 5000), "b": "!"}},
	{"<{{tag}}>", map[string]any{"tag": fasttemplate.TagFunc(nil)}}, // replaced below: both TagFunc types
}

// TestSameAsFasttemplate checks the port writes what fasttemplate v1.2.2
// writes for the same template and values.
func TestSameAsFasttemplate(t *testing.T) {
	for i, c := range cases {
		orig, err := fasttemplate.NewTemplate(c.tmpl, "{{", "}}")
		if err != nil {
			t.Fatal(err)
		}
		port, err := template.New(c.tmpl, "{{", "}}")
		if err != nil {
			t.Fatal(err)
		}
		mo, mp := c.m, c.m
		if i == len(cases)-1 {
			mo = map[string]any{"tag": fasttemplate.TagFunc(func(w io.Writer, tag string) (int, error) { return io.WriteString(w, "f:"+tag) })}
			mp = map[string]any{"tag": template.TagFunc(func(w io.Writer, tag string) (int, error) { return io.WriteString(w, "f:"+tag) })}
		}
		for range 3 { // again, from a pooled buffer
			want := orig.ExecuteString(mo)
			got, err := port.ExecuteString(mp)
			if err != nil || got != want {
				t.Errorf("ExecuteString(%q) = %q, %v; fasttemplate: %q", c.tmpl, got, err, want)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := template.New("a {{b", "{{", "}}"); err == nil {
		t.Error("New with an unclosed tag: nil error")
	}
	p, _ := template.New("a {{b}} c", "{{", "}}")
	errTag := errors.New("tag failed")
	if _, err := p.ExecuteFuncString(func(io.Writer, string) (int, error) { return 0, errTag }); !errors.Is(err, errTag) {
		t.Errorf("ExecuteFuncString with a failing TagFunc: %v, want %v", err, errTag)
	}
	if _, err := p.ExecuteString(map[string]any{"b": 42}); err == nil {
		t.Error("ExecuteString with an int value: nil error")
	}
	// After an error the pooled buffer must come back empty.
	if s, err := p.ExecuteString(map[string]any{"b": "B"}); s != "a B c" || err != nil {
		t.Errorf("ExecuteString after a failure = %q, %v, want %q", s, err, "a B c")
	}
}

// TestConcurrent renders from many goroutines at once: every result must be
// its own, never another goroutine's bytes.
func TestConcurrent(t *testing.T) {
	p, _ := template.New("id={{id}};pad={{pad}}", "{{", "}}")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				id := fmt.Sprint(g*1000 + i)
				pad := strings.Repeat("p", i%300)
				got, err := p.ExecuteString(map[string]any{"id": id, "pad": pad})
				if want := "id=" + id + ";pad=" + pad; got != want || err != nil {
					t.Errorf("ExecuteString = %q, %v, want %q", got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

const benchTmpl = `<div class="user"><a href="/u/{{id}}">{{name}}</a> <span>{{email}}</span> {{bio}}</div>`

var benchValues = map[string]any{"id": "12345", "name": "Ann Example", "email": "ann@example.com",
	"bio": strings.Repeat("Writes Go. ", 20)}

var sink string

// BenchmarkExecuteString renders one template with fasttemplate (its
// bytebufferpool.Pool) and with the port (its bytebuf.Pool), in one run.
func BenchmarkExecuteString(b *testing.B) {
	b.Run("impl=fasttemplate", func(b *testing.B) {
		t := fasttemplate.New(benchTmpl, "{{", "}}")
		b.ReportAllocs()
		for b.Loop() {
			sink = t.ExecuteString(benchValues)
		}
	})
	b.Run("impl=reuse", func(b *testing.B) {
		t, _ := template.New(benchTmpl, "{{", "}}")
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = t.ExecuteString(benchValues)
		}
	})
}

// BenchmarkExecuteStringParallel is the same from every P.
func BenchmarkExecuteStringParallel(b *testing.B) {
	b.Run("impl=fasttemplate", func(b *testing.B) {
		t := fasttemplate.New(benchTmpl, "{{", "}}")
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_ = t.ExecuteString(benchValues)
			}
		})
	})
	b.Run("impl=reuse", func(b *testing.B) {
		t, _ := template.New(benchTmpl, "{{", "}}")
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_, _ = t.ExecuteString(benchValues)
			}
		})
	})
}

// BenchmarkPaired times fasttemplate and the port in pairs of batches run
// back to back; x-base is the port's time over fasttemplate's.
//
//	go test -run '^$' -bench Paired -benchtime 300x
func BenchmarkPaired(b *testing.B) {
	orig := fasttemplate.New(benchTmpl, "{{", "}}")
	port, _ := template.New(benchTmpl, "{{", "}}")
	reusetest.Paired(b, 200,
		func() { sink = orig.ExecuteString(benchValues) },
		func() { sink, _ = port.ExecuteString(benchValues) })
}

// TestManyIdleTemplates: the case of many idle pools, with the idiom it came
// from. Each template has its own pool, as in fasttemplate; a program holds
// many templates and renders most of them rarely. Rendered twice each and
// then left idle, the port's templates hold about what fasttemplate's
// (bytebufferpool, on sync.Pool) hold two collections later: the bytes
// counted are those beyond the templates themselves, made before. The
// margin, 256 B, covers what the last sweep let go of but the collector has
// not yet freed (the handles of its weak pointers, its Buffer's cleanup
// record): about 100 B, gone at the next collection. Before bytebuf let its
// state go one collection sooner, the port kept 6.4 KiB per template here.
func TestManyIdleTemplates(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates some megabytes")
	}
	if debug.Enabled {
		t.Skip("the debug build keeps a record of every object handed out")
	}
	const n = 2000
	values := map[string]any{"id": "1", "name": "Ann", "email": "ann@example.com", "bio": strings.Repeat("Writes Go. ", 100)}
	heapAfter := func(render func(i int)) float64 {
		reusetest.Collect()
		reusetest.Collect()
		before := heapAlloc()
		// No collection while rendering, so that every pool is still in use
		// at the first collection below.
		gc := rdebug.SetGCPercent(-1)
		for i := range n {
			for range 2 {
				render(i)
			}
		}
		rdebug.SetGCPercent(gc)
		reusetest.Collect() // the collection that ends the use
		reusetest.Collect() // and the next; no third
		return float64(heapAlloc()-before) / n
	}
	orig := make([]*fasttemplate.Template, n)
	port := make([]*template.Template, n)
	for i := range n {
		orig[i] = fasttemplate.New(benchTmpl, "{{", "}}")
		port[i], _ = template.New(benchTmpl, "{{", "}}")
	}
	base := heapAfter(func(i int) { sink = orig[i].ExecuteString(values) })
	got := heapAfter(func(i int) { sink, _ = port[i].ExecuteString(values) })
	t.Logf("per template, two collections after its last use: fasttemplate %.0f B, port %.0f B", base, got)
	if got > base+256 {
		t.Errorf("an idle template of the port keeps %.0f B, fasttemplate's %.0f B: want at most 256 B more", got, base)
	}
	runtime.KeepAlive(orig)
	runtime.KeepAlive(port)
}

// heapAlloc returns the bytes of live heap objects as of the last
// collection, and of those allocated since.
func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
