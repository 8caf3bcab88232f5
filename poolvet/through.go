package poolvet

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Get wrappers that take a buffer to fill. nats-server's
// msgBlock.loadBlock(buf) reads into buf when it is large enough, and into
// a buffer it takes from the pool otherwise: its result is either the
// caller's own buffer (sliced) or a pooled one. Called with nil, it is a
// Get wrapper; called with a buffer, the caller keeps what it passed,
// or a pooled buffer in its place that it cannot tell from it. The fact
// lists the parameter in Through, and a call takes from the pool only
// where that argument is nil.

// throughParams reports whether fn's result i is, on every return, a
// value of the classes taken, new memory or (memory of) a parameter of
// fn, and on one at least a taken one, a parameter on another: it
// returns those parameters' indexes (the receiver first).
func (c *checker) throughParams(fn *ssa.Function, i int, taken map[ssa.Value]bool) ([]int, bool) {
	n := fn.Signature.Results().Len()
	var through []int
	some := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != n {
			continue
		}
		t, ok := c.takenOrParam(ret.Results[i], taken, &through, 0)
		if !ok {
			return nil, false
		}
		some = some || t
	}
	return through, some && len(through) > 0
}

// takenOrParam reports whether v is a value of the classes taken (t),
// new memory, or a parameter (added to through), through slices and
// phis: ok is false for anything else.
func (c *checker) takenOrParam(v ssa.Value, taken map[ssa.Value]bool, through *[]int, depth int) (t, ok bool) {
	if depth > 8 {
		return false, false
	}
	if c.fromTaken(v, taken) {
		return true, true
	}
	if fresh(v) {
		return false, true
	}
	switch x := v.(type) {
	case *ssa.Slice:
		return c.takenOrParam(x.X, taken, through, depth+1)
	case *ssa.Parameter:
		i := slices.Index(x.Parent().Params, x)
		if i < 0 {
			return false, false
		}
		if !slices.Contains(*through, i) {
			*through = append(*through, i)
		}
		return false, true
	case *ssa.UnOp:
		// A function with a defer returns what it stored in a result
		// slot: each value stored there.
		a, isAlloc := x.X.(*ssa.Alloc)
		if !isAlloc || !isResultSlot(a) {
			return false, false
		}
		return c.allTakenOrParam(storedIn(a), taken, through, depth)
	case *ssa.Phi:
		return c.allTakenOrParam(x.Edges, taken, through, depth)
	}
	return false, false
}

// allTakenOrParam is takenOrParam for each of vs: ok when each is, t when
// one at least is taken.
func (c *checker) allTakenOrParam(vs []ssa.Value, taken map[ssa.Value]bool, through *[]int, depth int) (t, ok bool) {
	for _, v := range vs {
		vt, vok := c.takenOrParam(v, taken, through, depth+1)
		if !vok {
			return false, false
		}
		t = t || vt
	}
	return t, true
}

// storedIn returns the values stored into the variable a.
func storedIn(a *ssa.Alloc) []ssa.Value {
	var vs []ssa.Value
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
			vs = append(vs, st.Val)
		}
	}
	return vs
}

// passedNil reports whether the call passes nil for each parameter in
// through: then what the wrapper returns is a pooled value or new memory.
func passedNil(call *ssa.Call, through []int) bool {
	_, args := callTarget(call.Common())
	for _, i := range through {
		if i >= len(args) || !isNilConst(args[i]) {
			return false
		}
	}
	return true
}

// stdInterfaceMethod reports whether the call invokes a method of an
// interface of the standard library (io.Writer's Write, cipher.Stream's
// XORKeyStream, hash.Hash's Write): their contracts let an
// implementation read or fill the slices it is passed for the call, not
// keep them (io.Writer: "Implementations must not retain p"). Results
// that may carry the memory back are judged by the caller, as for
// functions. A method with a parameter of another kind than a slice or
// a basic type (heap.Interface's Push(x any)) may keep it.
func stdInterfaceMethod(common *ssa.CallCommon) bool {
	m := common.Method
	if m == nil || m.Pkg() == nil || !isStd(m.Pkg().Path()) {
		return false
	}
	params := m.Type().(*types.Signature).Params()
	for i := range params.Len() {
		switch params.At(i).Type().Underlying().(type) {
		case *types.Slice, *types.Basic:
		default:
			return false
		}
	}
	return true
}
