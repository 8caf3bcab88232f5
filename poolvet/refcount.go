package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Reference counts. A pooled value shared by several owners (a packet
// buffer split into coalesced packets, a frame shared by its readers) is
// given back when a counter in it reaches zero: each owner drops its
// reference, and only the last drop Puts it. Such a Put gives back nothing
// the caller alone owns, so a release of that kind (unref) ends no
// lifetime for the use and double Put checks, and counts as given back for
// the leak check.
//
// A counter is an integer field that the package both counts up and down:
// x.n++ and x.n-- (or += and -= of any amount), or sync/atomic Adds to it.
// A Put is counted when a branch on a counter of the value put, compared
// with a constant, decides whether it runs: if x.n == 0 { Put(x) }, or
// if atomic.AddInt32(&x.n, -1) == 0 { Put(x) }, or a panic unless the
// count is zero before the Put.

// counterFields returns the fields of the package that count up and down.
func (c *checker) counterFields() map[*types.Var]bool {
	if c.counters != nil {
		return c.counters
	}
	fc := fieldCounts{up: make(map[*types.Var]bool), down: make(map[*types.Var]bool)}
	forEachInstr(c.fns, fc.countInstr)
	c.counters = make(map[*types.Var]bool)
	for f := range fc.up {
		if fc.down[f] {
			c.counters[f] = true
		}
	}
	return c.counters
}

// fieldCounts records, per integer field, whether the package counts it
// up and whether it counts it down.
type fieldCounts struct {
	up, down map[*types.Var]bool
}

// countInstr records the count of a field that the instruction in makes:
// a store of the field plus or minus an amount, or a sync/atomic Add.
func (fc *fieldCounts) countInstr(in ssa.Instruction) {
	switch x := in.(type) {
	case *ssa.Store:
		if f, delta, neg := storedAdd(x); f != nil {
			fc.count(f, delta, neg)
		}
	case ssa.CallInstruction:
		if fa, delta, ok := atomicAdd(x.Common()); ok {
			if f := fieldOf(fa); f != nil {
				fc.count(f, delta, false)
			}
		}
	}
}

// count records that the field f changes by delta, negated when neg: up
// or down by the sign of a constant, both ways for an amount not known.
func (fc *fieldCounts) count(f *types.Var, delta ssa.Value, neg bool) {
	k, ok := delta.(*ssa.Const)
	if !ok || k.Value == nil {
		fc.up[f], fc.down[f] = true, true // an amount not known
		return
	}
	if (k.Int64() < 0) != neg {
		fc.down[f] = true
	} else {
		fc.up[f] = true
	}
}

// storedAdd returns the field that the store x sets to itself plus or
// minus an amount (x.n++, x.n -= d), the amount, and whether it is
// subtracted. The field is nil for any other store.
func storedAdd(x *ssa.Store) (*types.Var, ssa.Value, bool) {
	fa, ok := x.Addr.(*ssa.FieldAddr)
	if !ok || !isInteger(x.Val.Type()) {
		return nil, nil, false
	}
	op, ok := x.Val.(*ssa.BinOp)
	if !ok || (op.Op != token.ADD && op.Op != token.SUB) {
		return nil, nil, false
	}
	if !loadsField(op.X, fa) {
		return nil, nil, false
	}
	return fieldOf(fa), op.Y, op.Op == token.SUB
}

// atomicAdd returns the field and the amount of a sync/atomic Add to a
// field: atomic.AddInt32(&x.n, d), or x.n.Add(d) on an atomic.Int32.
func atomicAdd(common *ssa.CallCommon) (*ssa.FieldAddr, ssa.Value, bool) {
	fa, name, args, ok := atomicOp(common)
	if !ok || len(args) < 2 || (name != "Add" && !isAtomicAddFunc(name)) {
		return nil, nil, false
	}
	return fa, args[1], true
}

func isAtomicAddFunc(name string) bool {
	switch name {
	case "AddInt32", "AddInt64", "AddUint32", "AddUint64", "AddUintptr":
		return true
	}
	return false
}

// atomicOp returns the field a sync/atomic function or method operates
// on, with the operation's name and its arguments (the field first).
func atomicOp(common *ssa.CallCommon) (*ssa.FieldAddr, string, []ssa.Value, bool) {
	fn, ok := common.Value.(*ssa.Function)
	if !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || len(common.Args) == 0 {
		return nil, "", nil, false
	}
	fa, ok := common.Args[0].(*ssa.FieldAddr)
	if !ok {
		return nil, "", nil, false
	}
	return fa, fn.Name(), common.Args, true
}

// loadsField reports whether v loads the field fa addresses, of the same
// value (x.n++ addresses x.n twice).
func loadsField(v ssa.Value, fa *ssa.FieldAddr) bool {
	l, ok := v.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return false
	}
	fa2, ok := l.X.(*ssa.FieldAddr)
	return ok && fa2.X == fa.X && fa2.Field == fa.Field
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// counted reports whether a release of the value of class root at in is
// decided by a branch on a counter of that value: a block that dominates
// it ends in an If comparing the counter with a constant.
func (c *checker) counted(in ssa.Instruction, root ssa.Value) bool {
	b := in.Block()
	if b == nil {
		return false
	}
	counters := c.counterFields()
	if len(counters) == 0 {
		return false
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		if iff, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && c.counterCond(iff.Cond, root, counters) {
			return true
		}
	}
	return false
}

// counterCond reports whether cond compares a counter of the value of
// class root with a constant.
func (c *checker) counterCond(cond ssa.Value, root ssa.Value, counters map[*types.Var]bool) bool {
	cmp, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	switch cmp.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	x, y := cmp.X, cmp.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	if _, ok := y.(*ssa.Const); !ok {
		return false
	}
	var fa *ssa.FieldAddr
	switch v := x.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			fa, _ = v.X.(*ssa.FieldAddr)
		}
	case *ssa.Call:
		fa, _, _, _ = atomicOp(v.Common())
	}
	if fa == nil || !counters[fieldOf(fa)] {
		return false
	}
	r, derived := c.vs.of(fa.X)
	return r == root && !derived
}
