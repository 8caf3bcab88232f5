package report

import (
	"sync"

	"github.com/reuse-go/reuse"
)

var _ = register(w2)

func w2() Def {
	const size = 1024
	valuePool := func() *sync.Pool { return countedPool(func() any { return make([]byte, size) }) }
	ptrPool := func() *sync.Pool {
		return countedPool(func() any { b := make([]byte, size); return &b })
	}
	return Def{
		ID:        "W2",
		Claim:     "Storing a pointer in the pool removes the allocation that storing a slice value makes on every Put.",
		Pitfalls:  []string{"P4"},
		Name:      "pointer vs value in the pool",
		Op:        "get a 1 KiB []byte: fresh make, a pool storing []byte, a pool storing *[]byte",
		Published: "make 139 ns 1024 B 1 alloc; pool of []byte 48.4 ns 32 B 1 alloc; pool of *[]byte 16.9 ns 0 B 0 allocs",
		Detect: func() []Finding {
			p := valuePool()
			return found(DetectBoxing("sync.Pool, []byte value", func() {
				b := p.Get().([]byte)
				//lint:ignore SA6002 storing a slice value is the pitfall P4 being detected
				p.Put(b)
			}))
		},
		Cases: []CaseDef{{
			Variants: []VariantDef{
				{Name: "make([]byte, 1024)", Role: RoleBaseline, Published: pub(139, 1024, 1, 0), New: func() Op {
					return func(see func(any)) error {
						b := make([]byte, size)
						sinkBytes = b
						if see != nil {
							see(len(b))
						}
						return nil
					}
				}},
				{Name: "sync.Pool, []byte value", Role: RoleSyncPool, Published: pub(48.4, 32, 1, 139/48.4), New: func() Op {
					p := valuePool()
					return func(see func(any)) error {
						b := p.Get().([]byte)
						sinkBytes = b
						if see != nil {
							see(len(b))
						}
						//lint:ignore SA6002 this is the usual code, pitfall P4 included
						p.Put(b)
						return nil
					}
				}},
				{Name: "sync.Pool, *[]byte", Role: RoleSyncPoolCorrect, Published: pub(16.9, 0, 0, 139/16.9), New: func() Op {
					p := ptrPool()
					return func(see func(any)) error {
						bp := p.Get().(*[]byte)
						sinkBytes = *bp
						if see != nil {
							see(len(*bp))
						}
						p.Put(bp)
						return nil
					}
				}},
				{Name: "reuse.Slices[byte]", Role: RoleReuse, Published: pub(16.9, 0, 0, 139/16.9), New: func() Op {
					p := tracked(new(reuse.Slices[byte]))
					return func(see func(any)) error {
						b := p.Get(size)
						sinkBytes = b
						if see != nil {
							see(len(b))
						}
						p.Put(b)
						return nil
					}
				}},
			},
		}},
	}
}
