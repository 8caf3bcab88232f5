package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/jsonpool"
)

// lastWriter is the io.Writer of W5 and W7: it keeps a copy of the last
// write, in memory it reuses, so the report can check the output.
type lastWriter struct{ b []byte }

func (w *lastWriter) Write(p []byte) (int, error) {
	w.b = append(w.b[:0], p...)
	return len(p), nil
}

// W5's log line.
var (
	w5Time  = time.Date(2026, time.November, 21, 5, 46, 6, 0, time.UTC)
	w5Key   = "user"
	w5Value = "jack"
)

func w5() Def {
	line := func(w *lastWriter, see func(any)) error {
		if see != nil {
			see(w.b)
		}
		return nil
	}
	return Def{
		ID:        "W5",
		Name:      "log line",
		Op:        `format RFC3339 time + " " + key + "=" + value into a buffer and write it to an io.Writer`,
		Published: "411 ns 3 allocs → 307 ns 1 alloc",
		Cases: []CaseDef{{
			Variants: []VariantDef{
				{Name: "string concatenation", Role: RoleBaseline, Published: pub(411, -1, 3, 0), New: func() Op {
					w := new(lastWriter)
					return func(see func(any)) error {
						s := w5Time.Format(time.RFC3339) + " " + w5Key + "=" + w5Value + "\n"
						if _, err := w.Write([]byte(s)); err != nil {
							return err
						}
						return line(w, see)
					}
				}},
				{Name: "sync.Pool of *bytes.Buffer", Role: RoleSyncPool, Published: pub(307, -1, 1, 411.0/307), New: func() Op {
					w := new(lastWriter)
					pool := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
					return func(see func(any)) error {
						buf := pool.Get().(*bytes.Buffer)
						buf.Reset()
						buf.WriteString(w5Time.Format(time.RFC3339))
						buf.WriteByte(' ')
						buf.WriteString(w5Key)
						buf.WriteByte('=')
						buf.WriteString(w5Value)
						buf.WriteByte('\n')
						_, err := w.Write(buf.Bytes())
						pool.Put(buf)
						if err != nil {
							return err
						}
						return line(w, see)
					}
				}},
				{Name: "bytebuf.Pool", Role: RoleReuse, Published: pub(307, -1, 1, 411.0/307), New: func() Op {
					w := new(lastWriter)
					pool := new(bytebuf.Pool)
					return func(see func(any)) error {
						buf := pool.Get()
						buf.AppendTime(w5Time, time.RFC3339)
						buf.WriteByte(' ')
						buf.WriteString(w5Key)
						buf.WriteByte('=')
						buf.WriteString(w5Value)
						buf.WriteByte('\n')
						_, err := w.Write(buf.Bytes())
						pool.Put(buf)
						if err != nil {
							return err
						}
						return line(w, see)
					}
				}},
			},
		}},
	}
}

// replicatePooled is W6 as the write-up has it: it returns a slice it has
// already put back (pitfall P2).
func replicatePooled(pool *sync.Pool, s string, n int) []string {
	ssp := pool.Get().(*[]string)
	defer pool.Put(ssp)
	ss := (*ssp)[:0]
	for i := 0; i < n; i++ {
		ss = append(ss, s)
	}
	*ssp = ss
	return ss
}

// replicate is W6's baseline: a fresh slice the caller owns.
func replicate(s string, n int) []string {
	ss := make([]string, n)
	for i := range ss {
		ss[i] = s
	}
	return ss
}

func newStringsPool() *sync.Pool {
	return &sync.Pool{New: func() any { s := make([]string, 0, 8); return &s }}
}

func w6() Def {
	d := Def{
		ID:        "W6",
		Name:      "replicate a string n times",
		Op:        "fill a []string with n copies of a string and return it",
		Published: "n=5: 76.7 ns 1 alloc → 30.6 ns 0 allocs; n=100: 613 ns 1792 B → 250 ns 0 B",
		Detect: func() []Finding {
			pool := newStringsPool()
			return found(DetectUseAfterPut("sync.Pool, defer Put; return *ss", func(s string) []string {
				return replicatePooled(pool, s, 16)
			}, 4, 300*time.Millisecond))
		},
	}
	for _, c := range []struct {
		n         int
		base, got float64
		why       string
	}{
		{5, 76.7, 30.6, "at n=5 the op is a few tens of ns, of which a Get and a Put are about half, so load on the machine can decide the ratio"},
		{100, 613, 250, ""},
	} {
		n := c.n
		d.Cases = append(d.Cases, CaseDef{
			Name: fmt.Sprintf("n=%d", n),
			Size: n,
			Why:  c.why,
			Variants: []VariantDef{
				{Name: "make([]string, n)", Role: RoleBaseline, Published: pub(c.base, -1, 1, 0), New: func() Op {
					return func(see func(any)) error {
						ss := replicate("reuse", n)
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						return nil
					}
				}},
				{Name: "sync.Pool, defer Put", Role: RoleSyncPool, Published: pub(c.got, 0, 0, c.base/c.got), New: func() Op {
					pool := newStringsPool()
					return func(see func(any)) error {
						ss := replicatePooled(pool, "reuse", n)
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						return nil
					}
				}},
				{Name: "reuse.Slices, caller Puts", Role: RoleReuse, Published: pub(c.got, 0, 0, c.base/c.got), New: func() Op {
					pool := new(reuse.Slices[string])
					return func(see func(any)) error {
						ss := pool.Get(n)
						for i := range ss {
							ss[i] = "reuse"
						}
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						pool.Put(ss)
						return nil
					}
				}},
			},
		})
	}
	return d
}

// item is the document of W7 and W8.
type item struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

var (
	w7Item  = item{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}}
	w8Doc   = []byte(`{"id":1,"name":"Jack","items":["knife","shield","herbs"]}`)
	w8Other = []byte(`{"id":2,"items":["cloak"]}`) // no name: a stale one shows
)

func w7() Def {
	return Def{
		ID:        "W7",
		Name:      "JSON encode to a stream",
		Op:        `encode {"id":1,"name":"Jack","items":[...]} to an io.Writer`,
		Published: "json.NewEncoder 636 ns 5 allocs → pooled buffer 577 ns 3 allocs (json.Marshal 502 ns 3 allocs)",
		Cases: []CaseDef{{
			Variants: []VariantDef{
				{Name: "json.NewEncoder(w)", Role: RoleBaseline, Published: pub(636, -1, 5, 0), New: func() Op {
					w := new(lastWriter)
					return func(see func(any)) error {
						if err := json.NewEncoder(w).Encode(&w7Item); err != nil {
							return err
						}
						if see != nil {
							see(w.b)
						}
						return nil
					}
				}},
				{Name: "sync.Pool of *bytes.Buffer", Role: RoleSyncPool, Published: pub(577, -1, 3, 636.0/577), New: func() Op {
					w := new(lastWriter)
					pool := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
					return func(see func(any)) error {
						buf := pool.Get().(*bytes.Buffer)
						buf.Reset()
						err := json.NewEncoder(buf).Encode(&w7Item)
						if err == nil {
							_, err = w.Write(buf.Bytes())
						}
						pool.Put(buf)
						if err != nil {
							return err
						}
						if see != nil {
							see(w.b)
						}
						return nil
					}
				}},
				{Name: "json.Marshal + Write", Role: RoleOther, Published: pub(502, -1, 3, 636.0/502), New: func() Op {
					w := new(lastWriter)
					return func(see func(any)) error {
						b, err := json.Marshal(&w7Item)
						if err != nil {
							return err
						}
						b = append(b, '\n')
						if _, err := w.Write(b); err != nil {
							return err
						}
						if see != nil {
							see(w.b)
						}
						return nil
					}
				}},
				{Name: "jsonpool.Encode", Role: RoleReuse, Published: pub(577, -1, 3, 636.0/577), New: func() Op {
					w := new(lastWriter)
					return func(see func(any)) error {
						if err := jsonpool.Encode(w, &w7Item); err != nil {
							return err
						}
						if see != nil {
							see(w.b)
						}
						return nil
					}
				}},
			},
		}},
	}
}

// unmarshalPooled is W8 as usually written: a pooled struct, not reset
// (pitfall P3).
func unmarshalPooled(pool *sync.Pool, doc []byte, see func(any)) error {
	v := pool.Get().(*item)
	err := json.Unmarshal(doc, v)
	if err == nil && see != nil {
		see(*v)
	}
	pool.Put(v)
	return err
}

func newItemPool() *sync.Pool { return &sync.Pool{New: func() any { return new(item) }} }

// w8Reset is how the reuse variants reset a pooled item: everything zero,
// the Items array kept for the next document.
func w8Reset(v *item) { *v = item{Items: v.Items[:0]} }

func w8() Def {
	show := func(doc []byte, decode func([]byte, func(any)) error) (string, error) {
		var out string
		err := decode(doc, func(v any) { out = fmt.Sprintf("%+v", v) })
		return out, err
	}
	fresh := func(doc []byte, see func(any)) error {
		var v item
		if err := json.Unmarshal(doc, &v); err != nil {
			return err
		}
		if see != nil {
			see(v)
		}
		return nil
	}
	return Def{
		ID:        "W8",
		Name:      "JSON decode",
		Op:        "decode the W7 document with json.Unmarshal, and from an io.Reader with json.NewDecoder",
		Published: "Unmarshal 1903 ns 12 allocs → 1697 ns 10; stream 2255 ns 15 allocs → 2075 ns 13",
		Detect: func() []Finding {
			pool := newItemPool()
			return found(DetectStale("sync.Pool of *item, no reset", func(doc []byte) (string, error) {
				return show(doc, func(doc []byte, see func(any)) error { return unmarshalPooled(pool, doc, see) })
			}, func(doc []byte) (string, error) {
				return show(doc, fresh)
			}, [][]byte{w8Doc, w8Other}, 20))
		},
		Cases: []CaseDef{
			{
				Name: "Unmarshal",
				Why:  "pooling the struct saves 4 of json.Unmarshal's 13 allocations; the decoding itself dominates, so the gain is small and load moves it",
				Variants: []VariantDef{
					{Name: "json.Unmarshal(&v)", Role: RoleBaseline, Published: pub(1903, -1, 12, 0), New: func() Op {
						return func(see func(any)) error { return fresh(w8Doc, see) }
					}},
					{Name: "sync.Pool of *item, no reset", Role: RoleSyncPool, Published: pub(1697, -1, 10, 1903.0/1697), New: func() Op {
						pool := newItemPool()
						return func(see func(any)) error { return unmarshalPooled(pool, w8Doc, see) }
					}},
					{Name: "reuse.Pool, Reset keeps Items", Role: RoleReuse, Published: pub(1697, -1, 10, 1903.0/1697), New: func() Op {
						pool := &reuse.Pool[*item]{New: func() *item { return new(item) }, Reset: w8Reset}
						return func(see func(any)) error {
							v := pool.Get()
							err := json.Unmarshal(w8Doc, v)
							if err == nil && see != nil {
								see(*v)
							}
							pool.Put(v)
							return err
						}
					}},
				},
			},
			{
				Name: "Decoder",
				Variants: []VariantDef{
					{Name: "json.NewDecoder(r).Decode", Role: RoleBaseline, Published: pub(2255, -1, 15, 0), New: func() Op {
						return func(see func(any)) error {
							var v item
							if err := json.NewDecoder(bytes.NewReader(w8Doc)).Decode(&v); err != nil {
								return err
							}
							if see != nil {
								see(v)
							}
							return nil
						}
					}},
					{Name: "sync.Pool of *item, no reset", Role: RoleSyncPool, Published: pub(2075, -1, 13, 2255.0/2075), New: func() Op {
						pool := newItemPool()
						return func(see func(any)) error {
							v := pool.Get().(*item)
							err := json.NewDecoder(bytes.NewReader(w8Doc)).Decode(v)
							if err == nil && see != nil {
								see(*v)
							}
							pool.Put(v)
							return err
						}
					}},
					{Name: "jsonpool.Decode, reset item", Role: RoleReuse, Published: pub(2075, -1, 13, 2255.0/2075), New: func() Op {
						type state struct {
							r bytes.Reader
							v item
						}
						pool := &reuse.Pool[*state]{New: func() *state { return new(state) }}
						return func(see func(any)) error {
							s := pool.Get()
							s.r.Reset(w8Doc)
							w8Reset(&s.v)
							err := jsonpool.Decode(&s.r, &s.v, 1<<20)
							if err == nil && see != nil {
								see(s.v)
							}
							pool.Put(s)
							return err
						}
					}},
				},
			},
		},
	}
}
