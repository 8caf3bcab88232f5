package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/internal/cputime"
	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/reusetest"
)

// item is the document of workloads W7 and W8.
type item struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

const w7 = `{"id":1,"name":"Jack","items":["knife","shield","herbs"]}`

var (
	doc      = &item{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}}
	sinkB    []byte
	sinkItem *item
)

// BenchmarkMarshal is W7 without the stream: one value to bytes. The value is
// passed as a pointer in every variant, so no variant pays for boxing it.
func BenchmarkMarshal(b *testing.B) {
	b.Run("impl=json.Marshal", func(b *testing.B) {
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			out, err := json.Marshal(doc)
			if err != nil {
				b.Fatal(err)
			}
			sinkB = out
		}
	})
	b.Run("impl=json.NewEncoder", func(b *testing.B) {
		var buf bytes.Buffer
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			buf.Reset()
			if err := json.NewEncoder(&buf).Encode(doc); err != nil {
				b.Fatal(err)
			}
		}
		sinkB = buf.Bytes()
	})
	b.Run("impl=jsonpool.Append", func(b *testing.B) {
		dst := make([]byte, 0, 256)
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			out, err := jsonpool.Append(dst[:0], doc)
			if err != nil {
				b.Fatal(err)
			}
			sinkB = out
		}
	})
}

// stdEncode is W7 as usually written: the writer arrives as an io.Writer,
// as in an HTTP handler.
//
//go:noinline
func stdEncode(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

//go:noinline
func poolEncode(w io.Writer, v any, indent string) error {
	return jsonpool.Encoder{Indent: indent}.Encode(w, v)
}

// BenchmarkEncode is W7: one value per call to a stream, plain and indented.
func BenchmarkEncode(b *testing.B) {
	for _, indent := range []string{"", "  "} {
		name := "plain"
		if indent != "" {
			name = "indented"
		}
		for _, impl := range []struct {
			name   string
			encode func(io.Writer, any, string) error
		}{
			{"json.NewEncoder", stdEncode},
			{"jsonpool.Encode", poolEncode},
		} {
			b.Run("format="+name+"/impl="+impl.name, func(b *testing.B) {
				var buf bytes.Buffer
				defer reusetest.ReportAllocs(b)()
				defer cputime.Report(b)()
				for b.Loop() {
					buf.Reset()
					if err := impl.encode(&buf, doc, indent); err != nil {
						b.Fatal(err)
					}
				}
				sinkB = buf.Bytes()
			})
		}
	}
}

// BenchmarkDecode is W8. The stream variants read a fresh reader each
// iteration (pitfall P1: a drained reader would decode nothing).
func BenchmarkDecode(b *testing.B) {
	data := []byte(w7)
	b.Run("impl=json.Unmarshal", func(b *testing.B) {
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			var v item
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
			sinkItem = &v
		}
	})
	b.Run("impl=json.NewDecoder", func(b *testing.B) {
		var r strings.Reader
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			r.Reset(w7)
			var v item
			if err := json.NewDecoder(&r).Decode(&v); err != nil {
				b.Fatal(err)
			}
			sinkItem = &v
		}
	})
	b.Run("impl=jsonpool.Decode", func(b *testing.B) {
		var r strings.Reader
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			r.Reset(w7)
			var v item
			if err := jsonpool.Decode(&r, &v, 1<<20); err != nil {
				b.Fatal(err)
			}
			sinkItem = &v
		}
	})
	b.Run("impl=jsonpool.Values", func(b *testing.B) {
		var p jsonpool.Values[item]
		var r strings.Reader
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		for b.Loop() {
			r.Reset(w7)
			v, err := p.Decode(&r, 1<<20)
			if err != nil {
				b.Fatal(err)
			}
			sinkItem = v
			p.Put(v)
		}
	})
}

// BenchmarkPaired measures the ratios that matter in a way that survives a
// loaded machine: each iteration times a batch of calls of the baseline and
// then a batch of calls of this package back to back, and the reported
// figures are the medians of the batch times, so that load which comes and
// goes hits both sides alike and a batch slowed by preemption does not count.
// base-ns/op is the baseline, ours-ns/op this package, and x-base their
// ratio (below 1: this package is faster; see reusetest.Paired). The median
// leaves out the pairs in which the collector ran, so it understates what the
// baseline's allocations cost: the figure is conservative.
func BenchmarkPaired(b *testing.B) {
	dst := make([]byte, 0, 256)
	var buf bytes.Buffer
	var r strings.Reader
	for _, tc := range []struct {
		name       string
		base, pool func()
	}{
		{"op=marshal/base=json.Marshal",
			func() { sinkB, _ = json.Marshal(doc) },
			func() { sinkB, _ = jsonpool.Append(dst[:0], doc) }},
		{"op=encode/format=plain/base=json.NewEncoder",
			func() { buf.Reset(); _ = stdEncode(&buf, doc, "") },
			func() { buf.Reset(); _ = poolEncode(&buf, doc, "") }},
		{"op=encode/format=indented/base=json.NewEncoder",
			func() { buf.Reset(); _ = stdEncode(&buf, doc, "  ") },
			func() { buf.Reset(); _ = poolEncode(&buf, doc, "  ") }},
		{"op=decode/base=json.NewDecoder",
			func() {
				r.Reset(w7)
				var v item
				_ = json.NewDecoder(&r).Decode(&v)
				sinkItem = &v
			},
			func() {
				r.Reset(w7)
				var v item
				_ = jsonpool.Decode(&r, &v, 1<<20)
				sinkItem = &v
			}},
		{"op=decode/base=json.Unmarshal",
			func() {
				var v item
				_ = json.Unmarshal([]byte(w7), &v)
				sinkItem = &v
			},
			func() {
				v, _ := items.Unmarshal([]byte(w7))
				sinkItem = v
				items.Put(v)
			}},
	} {
		b.Run(tc.name, func(b *testing.B) { paired(b, tc.base, tc.pool) })
	}
}

func paired(b *testing.B, base, pool func()) { reusetest.Paired(b, 100, base, pool) }
