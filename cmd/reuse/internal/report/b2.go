package report

var _ = register(b2)

// sinkPtrs keeps B2's results alive.
//
//lint:ignore U1000 a sink: written, never read
var sinkPtrs []*int

// b2 is the break-even of pooling memory that holds pointers, which the
// collector must scan and which must be zeroed before reuse: a []*int of
// n bytes from make against one from a pool, cleared.
func b2() Def {
	d := Def{
		ID:        "B2",
		Name:      "break-even, with pointers",
		Op:        "get a zeroed []*int of n bytes, set its ends, give it up: make, or a pool's Get, clear and Put",
		Claim:     "Memory that holds pointers costs the collector more, so pooling it may pay from a smaller size than pointer-free memory.",
		Published: "no figure: the write-ups give folk numbers, not a measurement; this finds the size on this machine and Go",
		Curve:     "object size (bytes of pointers)",
	}
	one := new(int)
	for _, size := range breakEvenSizes {
		n := size / 8
		use := func(s []*int) {
			s[0], s[len(s)-1] = one, one
			sinkPtrs = s
		}
		d.Cases = append(d.Cases, CaseDef{
			Name: byteSize(size),
			Size: size,
			Variants: []VariantDef{
				{Name: "make([]*int, n/8)", Role: RoleBaseline, New: func() Op {
					return func(see func(any)) error {
						s := make([]*int, n)
						use(s)
						if see != nil {
							see(len(s))
						}
						return nil
					}
				}},
				{Name: "sync.Pool of *[]*int", Role: RoleSyncPool, New: func() Op {
					p := countedPool(func() any { s := make([]*int, n); return &s })
					return func(see func(any)) error {
						sp := p.Get().(*[]*int)
						s := *sp
						clear(s)
						use(s)
						if see != nil {
							see(len(s))
						}
						p.Put(sp)
						return nil
					}
				}},
				{Name: "reuse.Slices[*int]", Role: RoleReuse, New: func() Op {
					p := newSlices[*int](2 << 17)
					return func(see func(any)) error {
						s := p.Get(n)
						clear(s)
						use(s)
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
