package report

import (
	"github.com/reuse-go/reuse"
)

// w3Data is what W3 copies: 1024 bytes.
var w3Data = func() []byte {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

var _ = register(w3)

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
			pool := countedPool(func() any { b := make([]byte, 0, 1024); return &b })
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
			pool := tracked(new(reuse.Slices[byte]))
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
		Claim:     "A preallocated, reused or pooled slice removes the allocations of growing a 1 KiB slice byte by byte.",
		Name:      "preallocation",
		Op:        "build a 1024-byte slice: append byte by byte or the whole slice; fresh, preallocated, reused or pooled",
		Published: "bytewise: 2151 ns 9 allocs, prealloc 1304 ns 1, pooled 961 ns 0; whole slice: 311 ns 1, prealloc 307 ns 1, one reused slice 18.6 ns 0, pooled 35.6 ns 0",
		Cases: []CaseDef{{
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
