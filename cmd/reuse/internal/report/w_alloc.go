package report

import (
	"fmt"
	"sync"

	"github.com/reuse-go/reuse"
)

// w1Sizes are W1's slice lengths; w1Make the published make times in ns.
var (
	w1Sizes = []int{0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000}
	w1Make  = map[int]float64{0: 8.8, 1: 25, 100: 209, 1_000_000: 814_000}
)

// w1PoolNs is the published pool time, flat over sizes.
const w1PoolNs = 80

func w1() Def {
	d := Def{
		ID:        "W1",
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
		why := ""
		if ns, ok := w1Make[n]; ok {
			pb = pub(ns, -1, -1, 0)
			pp = pub(w1PoolNs, -1, 1, ns/w1PoolNs)
		}
		switch {
		case n <= 10:
			why = "below the crossover, allocating is about as cheap as pooling (P6): make of a few words is a pointer bump, a pool is a Get and a Put"
		case pp == nil:
			why = "the write-up gives make's time only at n = 0, 1, 100 and 1M"
		}
		d.Cases = append(d.Cases, CaseDef{
			Name: fmt.Sprintf("n=%s", sizeName(n)),
			Size: n,
			Why:  why,
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
					p := &sync.Pool{New: func() any { return make([]int, n) }}
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

// newSlices returns a Slices that keeps slices of up to maxCap elements,
// rounded down to a size class, for W1's largest size; the default keeps up
// to 1 MiB. W1 passes twice its largest n so that n's class, rounded up, is
// kept.
func newSlices[E any](maxCap int) *reuse.Slices[E] {
	s, err := reuse.NewSlices[E](maxCap)
	if err != nil {
		panic("report: " + err.Error())
	}
	return s
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000 && n%1_000 == 0:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}

func found(fs ...*Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

func w2() Def {
	const size = 1024
	valuePool := func() *sync.Pool { return &sync.Pool{New: func() any { return make([]byte, size) }} }
	ptrPool := func() *sync.Pool {
		return &sync.Pool{New: func() any { b := make([]byte, size); return &b }}
	}
	return Def{
		ID:        "W2",
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
			Why: "the op is a Get and a Put of about 12 ns each way; reuse.Slices spends a few instructions more than a sync.Pool of *[]byte, which knows its one size, so load on the machine can decide the ratio",
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
				{Name: "sync.Pool, *[]byte", Role: RoleOther, Published: pub(16.9, 0, 0, 139/16.9), New: func() Op {
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
					p := new(reuse.Slices[byte])
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

// w3Data is what W3 copies: 1024 bytes.
var w3Data = func() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

func w3() Def {
	const base = 2151.0
	bytewise := func(s []byte) []byte {
		//lint:ignore S1011 appending byte by byte is the workload
		for _, c := range w3Data {
			s = append(s, c)
		}
		return s
	}
	fresh := func(name string, p *Published, build func() []byte) VariantDef {
		return VariantDef{Name: name, Role: RoleOther, Published: p, New: func() Op {
			return func(see func(any)) error {
				s := build()
				sinkBytes = s
				if see != nil {
					see(s)
				}
				return nil
			}
		}}
	}
	pooled := func(name, role string, p *Published, fill func([]byte) []byte) VariantDef {
		return VariantDef{Name: name, Role: role, Published: p, New: func() Op {
			pool := &sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}
			return func(see func(any)) error {
				bp := pool.Get().(*[]byte)
				s := fill((*bp)[:0])
				if see != nil {
					see(s)
				}
				*bp = s
				pool.Put(bp)
				return nil
			}
		}}
	}
	reused := func(name, role string, p *Published, fill func([]byte) []byte) VariantDef {
		return VariantDef{Name: name, Role: role, Published: p, New: func() Op {
			pool := new(reuse.Slices[byte])
			return func(see func(any)) error {
				s := fill(pool.Get(len(w3Data))[:0])
				if see != nil {
					see(s)
				}
				pool.Put(s)
				return nil
			}
		}}
	}
	whole := func(s []byte) []byte { return append(s, w3Data...) }
	baseline := fresh("append bytewise, no prealloc", pub(base, -1, 9, 0), func() []byte { return bytewise(nil) })
	baseline.Role = RoleBaseline
	return Def{
		ID:        "W3",
		Name:      "preallocation",
		Op:        "build a 1024-byte slice: append byte by byte or the whole slice; fresh, preallocated, reused or pooled",
		Published: "bytewise: 2151 ns 9 allocs, prealloc 1304 ns 1, pooled 961 ns 0; whole slice: 311 ns 1, prealloc 307 ns 1, one reused slice 18.6 ns 0, pooled 35.6 ns 0",
		Cases: []CaseDef{{
			Why: "1024 appends dominate the op; reuse and sync.Pool save the same allocations, so both land near the published ratio and load decides which side",
			Variants: []VariantDef{
				baseline,
				fresh("append bytewise, preallocated", pub(1304, -1, 1, base/1304), func() []byte { return bytewise(make([]byte, 0, 1024)) }),
				pooled("sync.Pool, append bytewise", RoleSyncPool, pub(961, 0, 0, base/961), bytewise),
				reused("reuse.Slices, append bytewise", RoleReuse, pub(961, 0, 0, base/961), bytewise),
				fresh("append whole, no prealloc", pub(311, -1, 1, base/311), func() []byte { return whole(nil) }),
				fresh("append whole, preallocated", pub(307, -1, 1, base/307), func() []byte { return whole(make([]byte, 0, 1024)) }),
				{Name: "one reused slice, no pool", Role: RoleOther, Published: pub(18.6, 0, 0, base/18.6), New: func() Op {
					var s []byte
					return func(see func(any)) error {
						s = whole(s[:0])
						if see != nil {
							see(s)
						}
						return nil
					}
				}},
				pooled("sync.Pool, append whole", RoleOther, pub(35.6, 0, 0, base/35.6), whole),
				reused("reuse.Slices, append whole", RoleOther, pub(35.6, 0, 0, base/35.6), whole),
			},
		}},
	}
}

// person is W4's small struct.
type person struct {
	Name string
	Age  int
}

func w4() Def {
	const perOp = 10_000
	why := "the pool is slower than new() in time, here as in the write-up; its point is no garbage: 0 allocations and no GC instead of 10 000 allocations per op"
	return Def{
		ID:        "W4",
		Name:      "small struct, 10 000 per op",
		Op:        "new(person) 10 000 times vs Get and Put 10 000 times; and one Put+Get on every P at once",
		Published: "160 698 ns 10 000 allocs → 191 163 ns 0 allocs (pool slower in time, but no garbage); parallel Put+Get 4.4 ns",
		Cases: []CaseDef{
			{
				Name: "serial",
				Why:  why,
				Variants: []VariantDef{
					{Name: "new(person)", Role: RoleBaseline, Published: pub(160698, -1, 10000, 0), New: func() Op {
						return func(see func(any)) error {
							var p *person
							for i := 0; i < perOp; i++ {
								p = new(person)
								p.Age = i
								sinkPerson = p
							}
							if see != nil {
								see(*p)
							}
							return nil
						}
					}},
					{Name: "sync.Pool", Role: RoleSyncPool, Published: pub(191163, -1, 0, 160698.0/191163), New: func() Op {
						pool := &sync.Pool{New: func() any { return new(person) }}
						return func(see func(any)) error {
							for i := 0; i < perOp; i++ {
								p := pool.Get().(*person)
								p.Age = i
								sinkPerson = p
								if see != nil && i == perOp-1 {
									see(*p)
								}
								pool.Put(p)
							}
							return nil
						}
					}},
					{Name: "reuse.Pool[*person]", Role: RoleReuse, Published: pub(191163, -1, 0, 160698.0/191163), New: func() Op {
						pool := &reuse.Pool[*person]{New: func() *person { return new(person) }}
						return func(see func(any)) error {
							for i := 0; i < perOp; i++ {
								p := pool.Get()
								p.Age = i
								sinkPerson = p
								if see != nil && i == perOp-1 {
									see(*p)
								}
								pool.Put(p)
							}
							return nil
						}
					}},
				},
			},
			{
				Name: "parallel",
				Why:  "the write-up gives only the pool's parallel time, no baseline to take a ratio against",
				Variants: []VariantDef{
					{Name: "new(person)", Role: RoleBaseline, Parallel: true, New: func() Op {
						return func(see func(any)) error {
							p := new(person)
							p.Age = 1
							keep(p)
							if see != nil {
								see(*p)
							}
							return nil
						}
					}},
					{Name: "sync.Pool Put+Get", Role: RoleSyncPool, Parallel: true, Published: pub(4.4, 0, 0, 0), New: func() Op {
						pool := &sync.Pool{New: func() any { return new(person) }}
						return func(see func(any)) error {
							p := pool.Get().(*person)
							p.Age = 1
							if see != nil {
								see(*p)
							}
							pool.Put(p)
							return nil
						}
					}},
					{Name: "reuse.Pool Put+Get", Role: RoleReuse, Parallel: true, Published: pub(4.4, 0, 0, 0), New: func() Op {
						pool := &reuse.Pool[*person]{New: func() *person { return new(person) }}
						return func(see func(any)) error {
							p := pool.Get()
							p.Age = 1
							if see != nil {
								see(*p)
							}
							pool.Put(p)
							return nil
						}
					}},
				},
			},
		},
	}
}
