package poolvet

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Borrowed parameters. A function of the program that is handed a pooled
// value may keep it (store it, send it, return it, give it back): the
// caller owns it no longer, and the leak check does not follow it past
// such a call. A function that only borrows a parameter (reads it, writes
// into it, passes it to functions that borrow it too) leaves the value to
// its caller, which must still give it back on every path: a Get, a call
// that parses the buffer (hdr.Unmarshal(buf), syncthing's readHeader), an
// error return without Put is a leak.
//
// The borrowsFact of a function lists the parameters (the receiver first)
// it borrows: on no path does it store one (into a field, a global, a
// map, a channel, a closure, a goroutine), return it or memory of it (a
// subslice), give it back, or hand it to a call that may keep it. An
// interface method, a function value, a method value, a variadic
// parameter and a function without a body or a fact keep what they are
// handed, as before.

// borrowsFact lists the parameters a function only borrows.
type borrowsFact struct {
	Params []int
}

// AFact marks borrowsFact as a fact.
func (*borrowsFact) AFact() {}

func (f *borrowsFact) String() string { return fmt.Sprintf("borrows(%v)", f.Params) }

// borrowState holds what computeBorrows found: for each function of the
// package with a candidate parameter, which it borrows, and the
// borrowsFacts imported so far (nil for none).
type borrowState struct {
	borrowed map[*ssa.Function][]bool
	imported map[*ssa.Function]*borrowsFact
}

// borrowCandidate reports whether a parameter of type t may hold a pooled
// value that a caller hands on: a pointer or a slice.
func borrowCandidate(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice:
		return true
	}
	return false
}

// computeBorrows finds the parameters that the functions of the package
// only borrow, and exports them as facts. It starts from every candidate
// parameter borrowed and drops those a use may keep, until nothing
// changes: a function that calls itself, or two that call each other,
// borrow what neither keeps. Dropping a parameter of a function rechecks
// its callers only, so each function is checked a few times at most.
func (c *checker) computeBorrows() {
	c.borrow = &borrowState{
		borrowed: make(map[*ssa.Function][]bool),
		imported: make(map[*ssa.Function]*borrowsFact),
	}
	for _, fn := range c.fns {
		if b := borrowCandidates(fn); b != nil {
			c.borrow.borrowed[fn] = b
		}
	}
	callers := c.borrowCallers()
	var work []*ssa.Function
	queued := make(map[*ssa.Function]bool)
	for _, fn := range c.fns {
		if c.borrow.borrowed[fn] != nil {
			work = append(work, fn)
			queued[fn] = true
		}
	}
	rels := make(map[*ssa.Function][]release)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		queued[fn] = false
		if _, ok := rels[fn]; !ok {
			rels[fn] = c.releasesIn(fn)
		}
		if !c.dropLent(fn, c.borrow.borrowed[fn], rels[fn]) {
			continue
		}
		for _, caller := range callers[fn] {
			if !queued[caller] && c.borrow.borrowed[caller] != nil {
				work = append(work, caller)
				queued[caller] = true
			}
		}
	}
	c.exportBorrows()
}

// borrowCandidates returns, for each parameter of fn, whether it is a
// candidate (borrowCandidate, and not variadic), or nil when fn has no
// body or no candidate.
func borrowCandidates(fn *ssa.Function) []bool {
	if len(fn.Blocks) == 0 {
		return nil
	}
	b := make([]bool, len(fn.Params))
	some := false
	for i, p := range fn.Params {
		if borrowCandidate(p.Type()) && !(fn.Signature.Variadic() && i == len(fn.Params)-1) {
			b[i], some = true, true
		}
	}
	if !some {
		return nil
	}
	return b
}

// borrowCallers maps each function with a candidate parameter to the
// functions of the package that call it directly.
func (c *checker) borrowCallers() map[*ssa.Function][]*ssa.Function {
	callers := make(map[*ssa.Function][]*ssa.Function)
	for _, fn := range c.fns {
		seen := make(map[*ssa.Function]bool)
		forEachInstr([]*ssa.Function{fn}, func(in ssa.Instruction) {
			ci, ok := in.(ssa.CallInstruction)
			if !ok {
				return
			}
			if callee := staticCallee(ci.Common()); callee != nil && c.borrow.borrowed[callee] != nil && !seen[callee] {
				seen[callee] = true
				callers[callee] = append(callers[callee], fn)
			}
		})
	}
	return callers
}

// exportBorrows exports the borrowsFact of each declared function of the
// package that borrows a parameter.
func (c *checker) exportBorrows() {
	for fn, b := range c.borrow.borrowed {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Synthetic != "" || obj.Pkg() != c.pass.Pkg {
			continue
		}
		var f borrowsFact
		for i, ok := range b {
			if ok {
				f.Params = append(f.Params, i)
			}
		}
		if len(f.Params) > 0 {
			c.pass.ExportObjectFact(obj, &f)
		}
	}
}

// staticCallee returns the function a call reaches directly, its generic
// origin for an instance: not an interface method, a function value or a
// method value (a bound closure).
func staticCallee(common *ssa.CallCommon) *ssa.Function {
	if common.IsInvoke() {
		return nil
	}
	fn, ok := common.Value.(*ssa.Function)
	if !ok {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn
}

// dropLent clears in b the parameters of fn that a use may keep, given
// rels, the releases of fn, and reports whether it cleared one.
func (c *checker) dropLent(fn *ssa.Function, b []bool, rels []release) bool {
	params := make(map[ssa.Value][]int)
	for i, ok := range b {
		if ok {
			r, _ := c.vs.of(fn.Params[i])
			params[r] = append(params[r], i)
		}
	}
	changed := false
	lent := func(r ssa.Value) {
		for _, i := range params[r] {
			b[i] = false
			changed = true
		}
		delete(params, r)
	}
	for _, r := range rels {
		if _, ok := params[r.root]; ok {
			lent(r.root)
		}
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if len(params) == 0 {
				return changed
			}
			for _, op := range in.Operands(nil) {
				if *op == nil {
					continue
				}
				r, _ := c.vs.of(*op)
				if _, ok := params[r]; ok && c.usesClass(in, r) && c.lends(in, r) {
					lent(r)
				}
			}
		}
	}
	return changed
}

// lends reports whether in, which uses the value of class rep, may keep
// it: the leak check's escaping uses, a store anywhere but into the value,
// and a call of a method of the package on it that does not borrow its
// receiver.
func (c *checker) lends(in ssa.Instruction, rep ssa.Value) bool {
	if st, ok := in.(*ssa.Store); ok {
		// Into its own memory, or into a local that is the value itself;
		// a subslice in a local of its own is a value not followed.
		r, _ := c.vs.of(st.Addr)
		return r != rep
	}
	if ci, ok := in.(ssa.CallInstruction); ok {
		if _, isGo := in.(*ssa.Go); !isGo {
			return c.callLends(ci, rep)
		}
	}
	return c.escapingUse(in, rep)
}

// callLends is lends for a call: an interface method called on it, a
// method of the package that does not borrow its receiver, or an argument
// that escapes (argEscapes).
func (c *checker) callLends(x ssa.CallInstruction, rep ssa.Value) bool {
	common := x.Common()
	if _, ok := common.Value.(*ssa.Builtin); ok {
		return false
	}
	if common.IsInvoke() {
		if r, _ := c.vs.of(common.Value); r == rep {
			return true
		}
		return c.argEscapes(common, rep)
	}
	if recv, _ := methodCall(common); recv != nil {
		if r, _ := c.vs.of(recv); r == rep {
			fn := staticCallee(common)
			if b, ok := c.borrow.borrowed[fn]; ok && borrowCandidate(fn.Params[0].Type()) && !b[0] {
				return true
			}
		}
	}
	return c.argEscapes(common, rep)
}

// borrowsArg reports whether the call's callee only borrows its argument
// i (the receiver first): by the callee's borrowsFact, or as computed so
// far for a function of this package.
func (c *checker) borrowsArg(common *ssa.CallCommon, i int) bool {
	fn := staticCallee(common)
	if fn == nil || c.borrow == nil {
		return false
	}
	if b, ok := c.borrow.borrowed[fn]; ok {
		return i < len(b) && b[i]
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return false
	}
	f, ok := c.borrow.imported[fn]
	if !ok {
		f = new(borrowsFact)
		if !c.pass.ImportObjectFact(obj, f) {
			f = nil
		}
		c.borrow.imported[fn] = f
	}
	if f == nil {
		return false
	}
	for _, p := range f.Params {
		if p == i {
			return true
		}
	}
	return false
}
