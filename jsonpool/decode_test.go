package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/reusetest"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestDecode(t *testing.T) {
	big := `[` + strings.Repeat(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",`, 2000) + `0]`
	for _, tc := range []struct {
		name  string
		in    string
		limit int64
		// wantErr: "" for success, "too large", "syntax", "type".
		wantErr string
	}{
		{"w8", w7, 1 << 20, ""},
		{"exactly the limit", w7, int64(len(w7)), ""},
		{"one byte over", w7, int64(len(w7) - 1), "too large"},
		{"far over", big, 100, "too large"},
		{"big within limit", big, int64(len(big)), ""},
		{"big one over", big, int64(len(big) - 1), "too large"},
		{"trailing space", w7 + "\n \t", 1 << 10, ""},
		{"empty", "", 1 << 10, "syntax"},
		{"truncated", w7[:20], 1 << 10, "syntax"},
		{"two values", w7 + w7, 1 << 10, "syntax"},
		{"wrong type", `{"id":"one"}`, 1 << 10, "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, rname := range []string{"plain", "one byte", "data+EOF"} {
				var r io.Reader = strings.NewReader(tc.in)
				switch rname {
				case "one byte":
					r = iotest.OneByteReader(r)
				case "data+EOF":
					r = iotest.DataErrReader(r)
				}
				cr := &countingReader{r: r}
				var got any
				var typed item
				var err error
				if tc.wantErr == "type" {
					err = jsonpool.Decode(cr, &typed, tc.limit)
				} else {
					err = jsonpool.Decode(cr, &got, tc.limit)
				}
				if int64(cr.n) > tc.limit+1 {
					t.Errorf("%s: Decode read %d bytes with limit %d, want at most %d", rname, cr.n, tc.limit, tc.limit+1)
				}
				switch tc.wantErr {
				case "":
					var want any
					if err := json.Unmarshal([]byte(tc.in), &want); err != nil {
						t.Fatal(err)
					}
					if err != nil || !reflect.DeepEqual(got, want) {
						t.Errorf("%s: Decode = %+v, %v; want %+v, nil", rname, got, err, want)
					}
				case "too large":
					if !errors.Is(err, jsonpool.ErrTooLarge) {
						t.Errorf("%s: Decode(%d bytes, limit %d) = %v, want ErrTooLarge", rname, len(tc.in), tc.limit, err)
					}
				case "syntax":
					var se *json.SyntaxError
					if !errors.As(err, &se) {
						t.Errorf("%s: Decode(%q) = %v, want a *json.SyntaxError", rname, tc.in, err)
					}
				case "type":
					var te *json.UnmarshalTypeError
					if !errors.As(err, &te) {
						t.Errorf("%s: Decode(%q) = %v, want a *json.UnmarshalTypeError", rname, tc.in, err)
					}
				}
			}
		})
	}
}

func TestDecodeReadError(t *testing.T) {
	errNet := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader(w7[:10]), iotest.ErrReader(errNet))
	var v item
	if err := jsonpool.Decode(r, &v, 1<<10); !errors.Is(err, errNet) {
		t.Errorf("Decode(failing reader) = %v, want an error wrapping %v", err, errNet)
	}
	// The pooled buffer is clean for the next user.
	if err := jsonpool.Decode(strings.NewReader(`{"id":2}`), &v, 1<<10); err != nil || v.ID != 2 {
		t.Errorf("Decode after a failed read = %+v, %v; want id 2, nil", v, err)
	}
}

func TestDecodeMisusePanics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		r     io.Reader
		limit int64
	}{
		{"zero limit", strings.NewReader("1"), 0},
		{"negative limit", strings.NewReader("1"), -1},
		{"nil reader", nil, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "jsonpool: Decode") {
					t.Errorf("panic = %v, want a message naming jsonpool: Decode", r)
				}
			}()
			var v any
			jsonpool.Decode(tc.r, &v, tc.limit)
		})
	}
}

// doc3 has a field that the next document lacks: decoding the second into a
// recycled value must not show the first one's x (pitfall P3).
type doc3 struct {
	X    int            `json:"x"`
	Name string         `json:"name"`
	Tags []string       `json:"tags"`
	M    map[string]int `json:"m"`
}

func TestValuesStaleFields(t *testing.T) {
	reusetest.KeepPooled(t)
	for _, tc := range []struct {
		name   string
		decode func(*jsonpool.Values[doc3], string) (*doc3, error)
	}{
		{"Decode", func(p *jsonpool.Values[doc3], s string) (*doc3, error) {
			return p.Decode(strings.NewReader(s), 1<<10)
		}},
		{"Unmarshal", func(p *jsonpool.Values[doc3], s string) (*doc3, error) { return p.Unmarshal([]byte(s)) }},
		{"Get", func(p *jsonpool.Values[doc3], s string) (*doc3, error) {
			v := p.Get()
			return v, json.Unmarshal([]byte(s), v)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p jsonpool.Values[doc3]
			a, err := tc.decode(&p, `{"x":7,"name":"A","tags":["t1","t2"],"m":{"a":1}}`)
			if err != nil || a.X != 7 {
				t.Fatalf("document A = %+v, %v", a, err)
			}
			p.Put(a)
			b, err := tc.decode(&p, `{"name":"B","m":{"b":2}}`)
			if err != nil {
				t.Fatal(err)
			}
			if b != a {
				t.Fatalf("the second value is not the recycled first one: the test proves nothing")
			}
			want := doc3{Name: "B", M: map[string]int{"b": 2}}
			if !reflect.DeepEqual(*b, want) {
				t.Errorf("document B decoded into a recycled value = %+v, want %+v (stale fields)", *b, want)
			}
			p.Put(b)
		})
	}
}

func TestValuesErrorReturnsNil(t *testing.T) {
	var p jsonpool.Values[doc3]
	if v, err := p.Unmarshal([]byte(`{"x":"s"}`)); v != nil || err == nil {
		t.Errorf("Unmarshal(bad) = %v, %v; want nil, error", v, err)
	}
	if v, err := p.Decode(strings.NewReader(`{"x":1}`), 3); v != nil || !errors.Is(err, jsonpool.ErrTooLarge) {
		t.Errorf("Decode(over the limit) = %v, %v; want nil, ErrTooLarge", v, err)
	}
	p.Put(nil) // does nothing
	v := p.Get()
	if v == nil || !reflect.DeepEqual(*v, doc3{}) {
		t.Errorf("Get() = %+v, want a zero doc3", v)
	}
	p.Put(v)
}

var items jsonpool.Values[item]

func TestDecodeAllocs(t *testing.T) {
	data := []byte(w7)
	var r bytes.Reader
	std := reusetest.Measure(1000, func() {
		var v item
		_ = json.Unmarshal(data, &v)
		sinkItem = &v
	})
	t.Logf("json.Unmarshal: %v", std)
	for _, tc := range []struct {
		name  string
		extra float64 // allowed over json.Unmarshal
		f     func()
	}{
		{"Decode", 0, func() {
			r.Reset(data)
			var v item
			_ = jsonpool.Decode(&r, &v, 1<<20)
			sinkItem = &v
		}},
		{"Values.Decode", -1, func() {
			r.Reset(data)
			v, _ := items.Decode(&r, 1<<20)
			sinkItem = v
			items.Put(v)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := reusetest.AllocsAtMost(t, std.PerRun+tc.extra+0.01, tc.f)
			t.Logf("%s: %v", tc.name, a)
		})
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{w7, `{"x":1} {"x":2}`, `[`, `{"id":1e3}`, ` null `, `"\ud800"`} {
		f.Add([]byte(s), 64)
	}
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 {
			limit = 1
		}
		var want, got any
		wantErr := json.Unmarshal(data, &want)
		err := jsonpool.Decode(bytes.NewReader(data), &got, int64(limit))
		if len(data) > limit {
			if !errors.Is(err, jsonpool.ErrTooLarge) {
				t.Fatalf("Decode(%d bytes, limit %d) = %v, want ErrTooLarge", len(data), limit, err)
			}
			return
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("Decode(%q) err = %v, json.Unmarshal err = %v", data, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%q) = %#v, json.Unmarshal = %#v", data, got, want)
		}
	})
}
