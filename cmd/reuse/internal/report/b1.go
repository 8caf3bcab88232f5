package report

import (
	"fmt"
)

// breakEvenSizes are the object sizes of the break-even curves, in bytes:
// 16 B to 1 MiB, by factors of four.
var breakEvenSizes = []int{16, 64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// byteSize names a size in bytes: 16B, 4KiB, 1MiB.
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

var _ = register(b1)

// b1 is the break-even of pooling pointer-free memory: a []byte of n bytes
// from make against one from a pool, cleared so that both hand out the same
// zeroed memory.
func b1() Def {
	d := Def{
		ID:        "B1",
		Name:      "break-even, pointer-free",
		Op:        "get a zeroed []byte of n bytes, write its ends, give it up: make, or a pool's Get, clear and Put",
		Claim:     "Pooling pays only above some object size; below it, allocating is as cheap (the folk rule puts it anywhere from 64 B to 4 KiB).",
		Published: "no figure: the write-ups give folk numbers, not a measurement; this finds the size on this machine and Go",
		Curve:     "object size (bytes, no pointers)",
	}
	for _, n := range breakEvenSizes {
		use := func(b []byte) {
			b[0], b[len(b)-1] = 1, 2
			sinkBytes = b
		}
		d.Cases = append(d.Cases, CaseDef{
			Name: byteSize(n),
			Size: n,
			Variants: []VariantDef{
				{Name: "make([]byte, n)", Role: RoleBaseline, New: func() Op {
					return func(see func(any)) error {
						b := make([]byte, n)
						use(b)
						if see != nil {
							see(len(b))
						}
						return nil
					}
				}},
				{Name: "sync.Pool of *[]byte", Role: RoleSyncPool, New: func() Op {
					p := countedPool(func() any { b := make([]byte, n); return &b })
					return func(see func(any)) error {
						bp := p.Get().(*[]byte)
						b := *bp
						clear(b)
						use(b)
						if see != nil {
							see(len(b))
						}
						p.Put(bp)
						return nil
					}
				}},
				{Name: "reuse.Slices[byte]", Role: RoleReuse, New: func() Op {
					p := newSlices[byte](2 << 20)
					return func(see func(any)) error {
						b := p.Get(n)
						clear(b)
						use(b)
						if see != nil {
							see(len(b))
						}
						p.Put(b)
						return nil
					}
				}},
			},
		})
	}
	return d
}
