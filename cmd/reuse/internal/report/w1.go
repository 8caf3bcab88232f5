package report

import (
	"fmt"
	"sync"
)

// w1Sizes are W1's slice lengths; w1Make the published make times in ns.
var (
	w1Sizes = []int{0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000}
	w1Make  = map[int]float64{0: 8.8, 1: 25, 100: 209, 1_000_000: 814_000}
)

// w1PoolNs is the published pool time, flat over sizes.
const w1PoolNs = 80

var _ = register(w1)

func w1() Def {
	d := Def{
		ID:        "W1",
		Claim:     "Pooling a []int beats make from some length n on (the crossover), and costs more below it.",
		Pitfalls:  []string{"P4"},
		Curve:     "n (elements of []int)",
		Name:      "make vs pool by size",
		Op:        "allocate a []int of n elements; pooled: Get and Put the same",
		Published: "make 8.8 ns (n=0), 25 ns (1), 209 ns (100), 814 µs (1e6); pool ~80 ns flat, 1 alloc (value stored); crossover between n=10 and n=100 (Go 1.9)",
		Detect: func() []Finding {
			p := &sync.Pool{New: func() any { return make([]int, 100) }}
			return found(DetectBoxing("sync.Pool ([]int value)", func() {
				s := p.Get().([]int)
				//lint:ignore SA6002 storing a slice value is the pitfall P4 being detected
				p.Put(s)
			}))
		},
	}
	for _, n := range w1Sizes {
		var pb, pp *Published
		if ns, ok := w1Make[n]; ok {
			pb = pub(ns, -1, -1, 0)
			pp = pub(w1PoolNs, -1, 1, ns/w1PoolNs)
		}
		d.Cases = append(d.Cases, CaseDef{
			Name: fmt.Sprintf("n=%s", sizeName(n)),
			Size: n,
			Variants: []VariantDef{
				{Name: "make([]int, n)", Role: RoleBaseline, Published: pb, New: func() Op {
					return func(see func(any)) error {
						s := make([]int, n)
						sinkInts = s
						if see != nil {
							see(len(s))
						}
						return nil
					}
				}},
				{Name: "sync.Pool, []int value", Role: RoleSyncPool, Published: pp, New: func() Op {
					p := countedPool(func() any { return make([]int, n) })
					return func(see func(any)) error {
						s := p.Get().([]int)
						sinkInts = s
						if see != nil {
							see(len(s))
						}
						//lint:ignore SA6002 this is the usual code, pitfall P4 included
						p.Put(s)
						return nil
					}
				}},
				{Name: "sync.Pool, *[]int", Role: RoleSyncPoolCorrect, New: func() Op {
					p := countedPool(func() any { s := make([]int, n); return &s })
					return func(see func(any)) error {
						sp := p.Get().(*[]int)
						sinkInts = *sp
						if see != nil {
							see(len(*sp))
						}
						p.Put(sp)
						return nil
					}
				}},
				{Name: "reuse.Slices[int]", Role: RoleReuse, Published: pp, New: func() Op {
					p := newSlices[int](2 * w1Sizes[len(w1Sizes)-1])
					return func(see func(any)) error {
						s := p.Get(n)
						sinkInts = s
						if see != nil {
							see(len(s))
						}
						p.Put(s)
						return nil
					}
				}},
			},
		})
	}
	return d
}
