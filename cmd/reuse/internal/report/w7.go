package report

import (
	"bytes"
	"encoding/json"

	"github.com/reuse-go/reuse/jsonpool"
)

var _ = register(w7)

func w7() Def {
	return Def{
		ID:        "W7",
		Claim:     "A pooled buffer makes encoding JSON to a stream a little cheaper.",
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
					pool := countedPool(func() any { return new(bytes.Buffer) })
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
