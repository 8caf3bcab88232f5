package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/reusetest"
)

// textKey is a map key type with MarshalText, and upper has MarshalJSON.
type textKey int

func (k textKey) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("k%d", int(k))), nil }

type upper string

func (u upper) MarshalJSON() ([]byte, error) { return json.Marshal(strings.ToUpper(string(u))) }

type failing struct{}

func (failing) MarshalJSON() ([]byte, error) { return nil, errors.New("failing: no") }

type nested struct {
	A   int               `json:"a,omitempty"`
	B   *nested           `json:"b,omitempty"`
	M   map[textKey]upper `json:"m"`
	Raw json.RawMessage   `json:"raw,omitempty"`
	F   float64           `json:"f"`
	S   string            `json:"s,string"`
}

// values are the inputs of the differential tests against encoding/json.
var values = []struct {
	name string
	v    any
}{
	{"nil", nil},
	{"true", true},
	{"int", -42},
	{"float", 1e21},
	{"small float", 1e-7},
	{"string", "plain"},
	{"html", "<a href=\"x?a=1&b=2\">'</a>"},
	{"line separators", "a\u2028b\u2029c"},
	{"invalid utf8", "\xff\xfe"},
	{"empty slice", []int{}},
	{"nil slice", []int(nil)},
	{"bytes", []byte("hello")},
	{"map sorted", map[string]int{"b": 2, "a": 1, "<": 0}},
	{"w7", doc},
	{"nested", &nested{A: 1, B: &nested{M: map[textKey]upper{3: "x", 1: "<y>"}}, Raw: json.RawMessage(` { "z" : [ 1 , 2 ] } `), F: 0.5, S: "q"}},
	{"any slice", []any{1, "two", 3.5, nil, map[string]any{"k": []any{}}}},
}

// badValues make encoding/json fail.
var badValues = []struct {
	name string
	v    any
}{
	{"chan", make(chan int)},
	{"func", func() {}},
	{"nan", math.NaN()},
	{"marshaler error", failing{}},
	{"bad raw", json.RawMessage(`{`)},
}

var options = []jsonpool.Encoder{
	{},
	{NoEscapeHTML: true},
	{Indent: "  "},
	{Prefix: ">", Indent: "\t"},
	{Prefix: "  ", Indent: "", NoEscapeHTML: true},
}

// want is what encoding/json writes for v with e's options, through a fresh
// json.Encoder.
func want(e jsonpool.Encoder, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(!e.NoEscapeHTML)
	enc.SetIndent(e.Prefix, e.Indent)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

func TestAppendMatchesMarshal(t *testing.T) {
	for _, tc := range values {
		t.Run(tc.name, func(t *testing.T) {
			wantB, wantErr := json.Marshal(tc.v)
			got, err := jsonpool.Append(nil, tc.v)
			if err != nil || wantErr != nil {
				t.Fatalf("Append err = %v, json.Marshal err = %v", err, wantErr)
			}
			if !bytes.Equal(got, wantB) {
				t.Errorf("Append(%v)\n got %q\nwant %q (json.Marshal)", tc.v, got, wantB)
			}
			// Appending keeps what dst held.
			got, _ = jsonpool.Append([]byte("prefix:"), tc.v)
			if string(got) != "prefix:"+string(wantB) {
				t.Errorf("Append(\"prefix:\", %v) = %q, want %q", tc.v, got, "prefix:"+string(wantB))
			}
		})
	}
}

func TestAppendWithOptions(t *testing.T) {
	for _, e := range options {
		for _, tc := range values {
			t.Run(fmt.Sprintf("%+v/%s", e, tc.name), func(t *testing.T) {
				wantB, err := want(e, tc.v)
				if err != nil {
					t.Fatal(err)
				}
				wantB = bytes.TrimSuffix(wantB, []byte("\n"))
				got, err := e.Append(nil, tc.v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, wantB) {
					t.Errorf("%+v.Append(%v)\n got %q\nwant %q", e, tc.v, got, wantB)
				}
				if e.Prefix == "" && e.Indent != "" && !e.NoEscapeHTML {
					mi, _ := json.MarshalIndent(tc.v, e.Prefix, e.Indent)
					if !bytes.Equal(got, mi) {
						t.Errorf("%+v.Append(%v)\n got %q\nwant %q (json.MarshalIndent)", e, tc.v, got, mi)
					}
				}
			})
		}
	}
}

func TestEncodeMatchesEncoder(t *testing.T) {
	for _, e := range options {
		for _, tc := range values {
			t.Run(fmt.Sprintf("%+v/%s", e, tc.name), func(t *testing.T) {
				wantB, err := want(e, tc.v)
				if err != nil {
					t.Fatal(err)
				}
				var w countingWriter
				if err := e.Encode(&w, tc.v); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(w.buf.Bytes(), wantB) {
					t.Errorf("%+v.Encode(%v)\n got %q\nwant %q (json.Encoder)", e, tc.v, w.buf.Bytes(), wantB)
				}
				if w.writes != 1 {
					t.Errorf("Encode made %d Write calls, want 1", w.writes)
				}
			})
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range badValues {
		t.Run(tc.name, func(t *testing.T) {
			_, wantErr := json.Marshal(tc.v)
			if wantErr == nil {
				t.Fatalf("json.Marshal(%v) did not fail", tc.v)
			}
			for _, e := range options {
				dst := []byte("keep")
				got, err := e.Append(dst, tc.v)
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%+v.Append(%v) err = %v, want %v", e, tc.v, err, wantErr)
				}
				if string(got) != "keep" {
					t.Errorf("%+v.Append(%q, %v) = %q after an error, want dst unchanged", e, "keep", tc.v, got)
				}
				var w countingWriter
				if err := e.Encode(&w, tc.v); err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%+v.Encode(%v) err = %v, want %v", e, tc.v, err, wantErr)
				}
				if w.writes != 0 {
					t.Errorf("%+v.Encode(%v) wrote %q after an error, want nothing", e, tc.v, w.buf.Bytes())
				}
			}
			// The next user is served normally.
			if got, err := jsonpool.Append(nil, 1); err != nil || string(got) != "1" {
				t.Errorf("Append(1) after an error = %q, %v; want \"1\", nil", got, err)
			}
		})
	}
}

// TestOptionsDoNotLeak runs calls with different options in sequence on one
// goroutine, so that each one reuses the encoder the previous one put back.
func TestOptionsDoNotLeak(t *testing.T) {
	reusetest.KeepPooled(t)
	v := map[string]any{"a": []int{1}, "h": "<&>"}
	for i, e := range append(options, options...) {
		for j, next := range options {
			if _, err := e.Append(nil, v); err != nil {
				t.Fatal(err)
			}
			got, err := next.Append(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			wantB, _ := want(next, v)
			if string(got)+"\n" != string(wantB) {
				t.Errorf("options[%d].Append then options[%d] %+v.Append = %q, want %q", i%len(options), j, next, got, wantB)
			}
			var w countingWriter
			if err := e.Encode(&w, v); err != nil {
				t.Fatal(err)
			}
			w.buf.Reset()
			if err := next.Encode(&w, v); err != nil {
				t.Fatal(err)
			}
			if w.buf.String() != string(wantB) {
				t.Errorf("options[%d].Encode then %+v.Encode = %q, want %q", i%len(options), next, w.buf.String(), wantB)
			}
		}
	}
}

// countingWriter counts Write calls and can be told to fail.
type countingWriter struct {
	buf    bytes.Buffer
	writes int
	fail   error
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.fail != nil {
		return 0, w.fail
	}
	return w.buf.Write(p)
}

// TestEncodeWriterError checks that a json.Encoder whose writer failed,
// which keeps that error forever, is not handed to the next user.
func TestEncodeWriterError(t *testing.T) {
	reusetest.KeepPooled(t)
	errDisk := errors.New("disk full")
	for _, e := range options {
		bad := &countingWriter{fail: errDisk}
		if err := e.Encode(bad, 1); !errors.Is(err, errDisk) {
			t.Fatalf("%+v.Encode(failing writer) = %v, want %v", e, err, errDisk)
		}
		// The same options again: a pooled encoder comes back to this path.
		var good countingWriter
		if err := e.Encode(&good, 2); err != nil {
			t.Fatalf("%+v.Encode after a failed Encode = %v, want nil", e, err)
		}
		if w, _ := want(e, 2); good.buf.String() != string(w) {
			t.Errorf("%+v.Encode after a failed Encode wrote %q, want %q", e, good.buf.String(), w)
		}
		if got, err := e.Append(nil, 3); err != nil || string(got) != "3" {
			t.Errorf("%+v.Append after a failed Encode = %q, %v; want \"3\", nil", e, got, err)
		}
	}
}

func TestEncodeNilWriterPanics(t *testing.T) {
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.HasPrefix(s, "jsonpool: Encoder.Encode") {
			t.Errorf("panic = %v, want a message naming jsonpool: Encoder.Encode", r)
		}
	}()
	jsonpool.Encode(nil, 1)
}

// TestNoPinning checks that the pooled encoder keeps neither the caller's dst
// nor its writer reachable once the call returns.
func TestNoPinning(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  func(chan struct{})
	}{
		{"Append", func(c chan struct{}) {
			b := make([]byte, 0, 4096)
			runtime.AddCleanup(unsafe.SliceData(b), func(c chan struct{}) { close(c) }, c)
			sinkB, _ = jsonpool.Encoder{Indent: " "}.Append(b, doc)
			sinkB = nil
		}},
		{"Encode", func(c chan struct{}) {
			w := new(bytes.Buffer)
			runtime.AddCleanup(w, func(c chan struct{}) { close(c) }, c)
			jsonpool.Encoder{Indent: " "}.Encode(w, doc)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			collected := make(chan struct{})
			tc.use(collected)
			waitCollected(t, collected, tc.name)
		})
	}
}

// waitCollected runs one collection and waits for collected to be closed.
// One collection only: a sync.Pool keeps what it held through the first
// collection after a Put (in its victim cache), so a pooled object that pins
// the caller's memory keeps it alive past that collection, and the check
// fails, while further collections would empty the pool and hide the pin.
func waitCollected(t *testing.T, collected chan struct{}, what string) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	select {
	case <-collected:
	case <-time.After(2 * time.Second):
		t.Errorf("%s: the caller's memory survived a collection: the pool pins it", what)
	}
}

func TestAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	var buf bytes.Buffer
	buf.Grow(256)
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Append", func() { sinkB, _ = jsonpool.Append(dst[:0], doc) }},
		{"Encoder.Append indented", func() { sinkB, _ = jsonpool.Encoder{Indent: "  "}.Append(dst[:0], doc) }},
		{"Encode", func() { buf.Reset(); _ = jsonpool.Encode(&buf, doc) }},
		{"Encoder.Encode indented", func() { buf.Reset(); _ = jsonpool.Encoder{Indent: "  "}.Encode(&buf, doc) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := reusetest.AllocsAtMost(t, 0, tc.f)
			t.Logf("%s: %v", tc.name, a)
		})
	}
}

// TestHammer runs every entry point from many goroutines with different
// options and checks every result; run it with -race -cpu=1,4.
func TestHammer(t *testing.T) {
	type result struct {
		e    jsonpool.Encoder
		want string
	}
	var cases []result
	for _, e := range options {
		w, _ := want(e, values[14].v)
		cases = append(cases, result{e, string(w)})
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst []byte
			var p jsonpool.Values[nested]
			for i := range 300 {
				c := cases[(g+i)%len(cases)]
				var err error
				dst, err = c.e.Append(dst[:0], values[14].v)
				if err != nil || string(dst)+"\n" != c.want {
					t.Errorf("goroutine %d: %+v.Append = %q, %v; want %q", g, c.e, dst, err, c.want)
					return
				}
				var w bytes.Buffer
				if err := c.e.Encode(&w, values[14].v); err != nil || w.String() != c.want {
					t.Errorf("goroutine %d: %+v.Encode = %q, %v; want %q", g, c.e, w.String(), err, c.want)
					return
				}
				in := fmt.Sprintf(`{"a":%d,"m":{"%d":"v"}}`, i+1, g)
				if i%2 == 1 {
					in = `{"f":1}`
				}
				v, err := p.Decode(strings.NewReader(in), 1<<10)
				if err != nil {
					t.Errorf("goroutine %d: Values.Decode(%s) = %v", g, in, err)
					return
				}
				if i%2 == 1 && (v.A != 0 || v.M != nil) {
					t.Errorf("goroutine %d: Values.Decode(%s) = %+v: stale fields", g, in, v)
					return
				}
				p.Put(v)
			}
		}()
	}
	wg.Wait()
}

func FuzzAppend(f *testing.F) {
	for _, s := range []string{w7, `[1,"<>&",{"a":null}]`, `"\u2028"`, `1e400`, `{"b":1,"a":{"c":[]}}`, `-0`} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, opt uint8) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		e := options[int(opt)%len(options)]
		wantB, wantErr := want(e, v)
		got, err := e.Append([]byte("x"), v)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%+v.Append(%q) err = %v, encoding/json err = %v", e, data, err, wantErr)
		}
		if err == nil && string(got) != "x"+strings.TrimSuffix(string(wantB), "\n") {
			t.Fatalf("%+v.Append(%q)\n got %q\nwant %q", e, data, got, wantB)
		}
		if e == (jsonpool.Encoder{}) {
			m, _ := json.Marshal(v)
			if err == nil && string(got[1:]) != string(m) {
				t.Fatalf("Append(%q) = %q, json.Marshal = %q", data, got[1:], m)
			}
		}
	})
}
