package poolvet

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// parted returns the values that a branch taken on every path to r parts
// from r's value: on the branch where cap(x) > cap(v), v the value r gives
// back, x is not a slice of v's array (no slice of an array has a larger
// capacity than the array), so x, and what is sliced or appended from it,
// holds other memory. A buffer written over a pooled seed, whose seed is
// given back once the buffer has grown past it, reads the new array after
// that Put (nats-server's bytes.NewBuffer(seed), if cap(b) > cap(seed)).
func (c *checker) parted(r release) map[ssa.Value]bool {
	b := r.instr.Block()
	if b == nil || r.deferred {
		return nil
	}
	var parted map[ssa.Value]bool
	for d := b; d != nil; d = d.Idom() {
		big, ok := c.largerThan(d, r)
		if !ok {
			continue
		}
		if parted == nil {
			parted = make(map[ssa.Value]bool)
		}
		parted[big] = true
	}
	return parted
}

// largerThan returns x where d is entered only by the edge of a branch on
// which cap(x) > cap(v), v r's value as released.
func (c *checker) largerThan(d *ssa.BasicBlock, r release) (ssa.Value, bool) {
	if len(d.Preds) != 1 {
		return nil, false
	}
	p := d.Preds[0]
	br, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok || p.Succs[0] == p.Succs[1] {
		return nil, false
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok {
		return nil, false
	}
	x, okx := capOf(cmp.X)
	y, oky := capOf(cmp.Y)
	if !okx || !oky {
		return nil, false
	}
	big, small := x, y
	switch taken := p.Succs[0] == d; {
	case taken && cmp.Op == token.GTR, !taken && cmp.Op == token.LEQ:
	case taken && cmp.Op == token.LSS, !taken && cmp.Op == token.GEQ:
		big, small = y, x
	default:
		return nil, false
	}
	if !c.sameValue(small, r.arg) {
		return nil, false
	}
	return big, true
}

// capOf returns s where v is cap(s).
func capOf(v ssa.Value) (ssa.Value, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	if !ok || b.Name() != "cap" || len(call.Call.Args) != 1 {
		return nil, false
	}
	return call.Call.Args[0], true
}

// sameValue reports whether a and b are the same object, not one a part
// of the other.
func (c *checker) sameValue(a, b ssa.Value) bool {
	oa, _ := c.vs.origin(a)
	ob, _ := c.vs.origin(b)
	return !oa.derived && !ob.derived && c.vs.find(oa.root) == c.vs.find(ob.root)
}

// fromParted reports whether v is a parted value, or is the same object as
// one, a part of one, or appended to one.
func (c *checker) fromParted(v ssa.Value, parted map[ssa.Value]bool) bool {
	if len(parted) == 0 {
		return false
	}
	return c.derivesFrom(v, parted, make(map[ssa.Value]bool))
}

func (c *checker) derivesFrom(v ssa.Value, parted, seen map[ssa.Value]bool) bool {
	if parted[v] {
		return true
	}
	if seen[v] {
		return true // a cycle through phis: the other edges decide
	}
	seen[v] = true
	if x, ok := sameObject(v); ok {
		return c.derivesFrom(x, parted, seen)
	}
	if x, ok := partOf(v); ok {
		return c.derivesFrom(x, parted, seen)
	}
	switch x := v.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !c.derivesFrom(e, parted, seen) {
				return false
			}
		}
		return len(x.Edges) > 0
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
			return c.derivesFrom(x.Call.Args[0], parted, seen)
		}
	case *ssa.UnOp:
		if st, ok := c.vs.single[x.X]; ok && x.Op == token.MUL {
			return c.derivesFrom(st.Val, parted, seen)
		}
	}
	return false
}
