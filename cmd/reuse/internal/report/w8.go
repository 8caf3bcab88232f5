package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/jsonpool"
)

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

func newItemPool() *sync.Pool { return countedPool(func() any { return new(item) }) }

// w8Reset is how the reuse variants reset a pooled item: everything zero,
// the Items array kept for the next document.
func w8Reset(v *item) { *v = item{Items: v.Items[:0]} }

var _ = register(w8)

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
		Claim:     "A pooled struct saves some of the allocations of decoding JSON, if it is reset between documents.",
		Pitfalls:  []string{"P3"},
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
				Variants: []VariantDef{
					{Name: "json.Unmarshal(&v)", Role: RoleBaseline, Published: pub(1903, -1, 12, 0), New: func() Op {
						return func(see func(any)) error { return fresh(w8Doc, see) }
					}},
					{Name: "sync.Pool of *item, no reset", Role: RoleSyncPool, Published: pub(1697, -1, 10, 1903.0/1697), New: func() Op {
						pool := newItemPool()
						return func(see func(any)) error { return unmarshalPooled(pool, w8Doc, see) }
					}},
					{Name: "sync.Pool of *item, reset", Role: RoleSyncPoolCorrect, New: func() Op {
						pool := newItemPool()
						return func(see func(any)) error {
							v := pool.Get().(*item)
							w8Reset(v)
							err := json.Unmarshal(w8Doc, v)
							if err == nil && see != nil {
								see(*v)
							}
							pool.Put(v)
							return err
						}
					}},
					{Name: "reuse.Pool, Reset keeps Items", Role: RoleReuse, Published: pub(1697, -1, 10, 1903.0/1697), New: func() Op {
						pool := tracked(&reuse.Pool[*item]{New: func() *item { return new(item) }, Reset: w8Reset})
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
					{Name: "sync.Pool of *item, reset", Role: RoleSyncPoolCorrect, New: func() Op {
						pool := newItemPool()
						return func(see func(any)) error {
							v := pool.Get().(*item)
							w8Reset(v)
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
						pool := tracked(&reuse.Pool[*state]{New: func() *state { return new(state) }})
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
