package poolvet

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Releases signalled by a result. A function may give back its parameter
// on some paths and say so by its result (nats-server's recycleIfDone,
// which returns true when it recycled): the caller owns the value again on
// the branch where the result says it was kept. Such a function makes a
// PutIf fact: the parameters it Puts on every path that returns the
// constant When as its bool result Result, and on no path that returns
// !When. At a call, the value is given back on the branches taken when the
// result is When; on the others it is the caller's. A call whose result
// is not branched on may have given it back: it counts as given back for
// the leak check, and for nothing else.

// A signal is the result at a call that says whether it released.
type signal struct {
	v    ssa.Value // the bool result at the call; nil when not used
	when bool      // the value it has when the call released
}

// signalled reports whether fn gives back the value of class rep on every
// path that returns the constant when as its bool result res, and on no
// path that returns !when; rels are fn's releases.
func (c *checker) signalled(fn *ssa.Function, rep ssa.Value, rels []release) (res int, when bool, ok bool) {
	gen := make(map[*ssa.BasicBlock]bool)
	for _, r := range rels {
		if r.root == rep && r.kind == put && r.signal == nil && !r.deferred {
			gen[r.instr.Block()] = true
		}
	}
	if len(gen) == 0 {
		return 0, false, false
	}
	results := fn.Signature.Results()
	for k := range results.Len() {
		if !types.Identical(results.At(k).Type().Underlying(), types.Typ[types.Bool]) {
			continue
		}
		rets, ok := constReturns(fn, k)
		if !ok {
			continue
		}
		for _, w := range []bool{true, false} {
			if releasesOnlyOn(fn, gen, rets, w) {
				return k, w, true
			}
		}
	}
	return 0, false, false
}

// constReturns maps each return block of fn to the constant it returns as
// result k, and reports false if one returns a value not constant.
func constReturns(fn *ssa.Function, k int) (map[*ssa.BasicBlock]bool, bool) {
	rets := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		if !isReturn(b) {
			continue
		}
		ret := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		kc, ok := ret.Results[k].(*ssa.Const)
		if !ok || kc.Value == nil || kc.Value.Kind() != constant.Bool {
			return nil, false
		}
		rets[b] = constant.BoolVal(kc.Value)
	}
	return rets, len(rets) > 0
}

// releasesOnlyOn reports whether every path to a return of when passes
// through gen, and no path to a return of !when does; each must exist.
func releasesOnlyOn(fn *ssa.Function, gen map[*ssa.BasicBlock]bool, rets map[*ssa.BasicBlock]bool, when bool) bool {
	passed := passedOn(fn, gen)
	reached := reachedFrom(gen)
	sawWhen, sawOther := false, false
	for b, v := range rets {
		if v == when {
			sawWhen = true
			if !passed[b] {
				return false
			}
		} else {
			sawOther = true
			if reached[b] {
				return false
			}
		}
	}
	return sawWhen && sawOther
}

// reachedFrom returns the blocks some path from a block of gen reaches,
// those included.
func reachedFrom(gen map[*ssa.BasicBlock]bool) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var queue []*ssa.BasicBlock
	for b := range gen {
		queue = append(queue, b)
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if seen[b] {
			continue
		}
		seen[b] = true
		queue = append(queue, b.Succs...)
	}
	return seen
}

// signalAt returns the signal of a call to a function with a PutIf fact.
func signalAt(in ssa.CallInstruction, f *releasesFact) *signal {
	s := &signal{when: f.When}
	call, ok := in.(*ssa.Call)
	if !ok {
		return s
	}
	if call.Call.Signature().Results().Len() == 1 {
		s.v = call
		return s
	}
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == f.Result {
			s.v = x
		}
	}
	return s
}

// signalRegion returns what runs after a signalled release on the
// branches taken when its result says it released: from the successor of
// each If on the result for that value, up to the kills, and not into
// the other successor of an If on the result that only that If reaches.
func (c *checker) signalRegion(fn *ssa.Function, r release) *region {
	reg := &region{in: make(map[ssa.Instruction]bool), endOf: make(map[*ssa.BasicBlock]bool)}
	v := r.signal.v
	if v == nil {
		return reg
	}
	var ifs []*ssa.If
	for _, u := range *v.Referrers() {
		if iff, ok := u.(*ssa.If); ok && iff.Cond == v {
			ifs = append(ifs, iff)
		}
	}
	kills := c.releaseKills(fn, r)
	for _, iff := range ifs {
		if other := branch(iff, !r.signal.when); len(other.Preds) == 1 {
			kills[other] = append(kills[other], 0)
		}
	}
	for _, iff := range ifs {
		reg.add(reachFrom(branch(iff, r.signal.when), 0, kills))
	}
	return reg
}

// branch returns the successor of iff taken when its condition is v.
func branch(iff *ssa.If, v bool) *ssa.BasicBlock {
	if v {
		return iff.Block().Succs[0]
	}
	return iff.Block().Succs[1]
}
