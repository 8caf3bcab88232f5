package poolvet

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A fieldPut is a release of the value loaded from a struct field.
type fieldPut struct {
	r release
	f *types.Var
}

// A handoff is a store of the value loaded from field from into field to
// of a new object, directly or through a function of the package.
type handoff struct {
	at       ssa.Instruction
	from, to *types.Var
}

// checkHandoffs reports the double Put of CVE-2023-45286 (go-resty
// v2.10.0): a value kept in a field (r.bodyBuf) is handed to a new object
// (a body whose Close Puts its field), the field still holds it, and
// elsewhere the package Puts what the field holds: both give it back.
// Ownership is followed through fields only in this shape: a Put of a
// field's value, a store of it into a field of a new object, and a Put of
// that field's value.
func (c *checker) checkHandoffs(puts []fieldPut) {
	if len(puts) == 0 {
		return
	}
	releasing := make(map[*types.Var]release)
	for _, p := range puts {
		releasing[p.f] = p.r
	}
	for _, h := range c.handoffs() {
		other, ok := releasing[h.to]
		if !ok || c.clearedAfter(h) {
			continue
		}
		for _, p := range puts {
			if p.f != h.from || p.r.instr.Parent() == other.instr.Parent() {
				continue
			}
			c.report(p.r.instr.Pos(), fmt.Sprintf("%s is Put twice: the value in field %s was handed to field %s at %s, which is Put at %s, and %s still holds it",
				c.name(p.r), h.from.Name(), h.to.Name(), c.where(h.at.Pos()), c.where(other.instr.Pos()), h.from.Name()), h.at.Pos())
		}
	}
}

// fieldPuts lists the releases among rels of a value loaded from a field.
func (c *checker) fieldPuts(rels []release) []fieldPut {
	var out []fieldPut
	for _, r := range rels {
		if loc, ok := c.vs.fields[r.root]; ok && r.kind == put && r.signal == nil {
			out = append(out, fieldPut{r, loc.f})
		}
	}
	return out
}

// handoffs lists the stores of a field's value into a field of a new
// object: x := &T{g: r.f}, or a call to a function of this package that
// stores its parameter so.
func (c *checker) handoffs() []handoff {
	var out []handoff
	forEachInstr(c.fns, func(in ssa.Instruction) {
		switch x := in.(type) {
		case *ssa.Store:
			if from := c.fieldClass(x.Val); from != nil {
				if to := newObjectField(x.Addr); to != nil {
					out = append(out, handoff{x, from, to})
				}
			}
		case *ssa.Call:
			callee, args := callTarget(x.Common())
			if callee == nil || callee.Pkg != c.pkg {
				return
			}
			for i, a := range args {
				if from := c.fieldClass(a); from != nil && i < len(callee.Params) {
					if to := c.storedParam(callee, callee.Params[i]); to != nil {
						out = append(out, handoff{x, from, to})
					}
				}
			}
		}
	})
	return out
}

// fieldClass returns the field v was loaded from, if its class is one.
func (c *checker) fieldClass(v ssa.Value) *types.Var {
	r, derived := c.vs.of(v)
	if derived {
		return nil
	}
	if loc, ok := c.vs.fields[r]; ok {
		return loc.f
	}
	return nil
}

// newObjectField returns the field addr addresses when it is a field of a
// new object of this function.
func newObjectField(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	if _, ok := fa.X.(*ssa.Alloc); !ok {
		return nil
	}
	return fieldOf(fa)
}

// storedParam returns the field of a new object that fn stores p into.
func (c *checker) storedParam(fn *ssa.Function, p *ssa.Parameter) *types.Var {
	pr, _ := c.vs.of(p)
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if r, derived := c.vs.of(st.Val); r == pr && !derived {
				if f := newObjectField(st.Addr); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// clearedAfter reports whether the function of h stores to the field it
// handed on, after h: the field no longer holds the value.
func (c *checker) clearedAfter(h handoff) bool {
	for _, in := range after(h.at, nil).instrs {
		if st, ok := in.(*ssa.Store); ok {
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fieldOf(fa) == h.from {
				return true
			}
		}
	}
	return false
}
