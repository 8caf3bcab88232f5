package template_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasttemplate"

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
