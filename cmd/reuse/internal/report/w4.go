package report

import (
	"github.com/reuse-go/reuse"
)

// person is W4's small struct.
type person struct {
	Name string
	Age  int
}

var _ = register(w4)

func w4() Def {
	const perOp = 10_000
	return Def{
		ID:        "W4",
		Claim:     "Pooling a small struct removes its garbage but does not save time.",
		Name:      "small struct, 10 000 per op",
		Op:        "new(person) 10 000 times vs Get and Put 10 000 times; and one Put+Get on every P at once",
		Published: "160 698 ns 10 000 allocs → 191 163 ns 0 allocs (pool slower in time, but no garbage); parallel Put+Get 4.4 ns",
		Cases: []CaseDef{
			{
				Name: "serial",
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
						pool := countedPool(func() any { return new(person) })
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
						pool := tracked(&reuse.Pool[*person]{New: func() *person { return new(person) }})
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
						pool := countedPool(func() any { return new(person) })
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
						pool := tracked(&reuse.Pool[*person]{New: func() *person { return new(person) }})
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
