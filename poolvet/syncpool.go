package poolvet

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// poolKey names the sync.Pool a method is called on: a package-level
// variable or a struct field. It returns nil when it cannot tell.
func poolKey(recv ssa.Value) types.Object {
	switch x := recv.(type) {
	case *ssa.Global:
		return x.Object()
	case *ssa.FieldAddr:
		if p, ok := x.X.Type().Underlying().(*types.Pointer); ok {
			if s, ok := p.Elem().Underlying().(*types.Struct); ok {
				return s.Field(x.Field)
			}
		}
	}
	return nil
}

// syncPoolCall returns the pool of a call to the sync.Pool method name.
func syncPoolCall(common *ssa.CallCommon, name string) (types.Object, bool) {
	fn, args := callTarget(common)
	if fn == nil || len(args) == 0 {
		return nil, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !isSyncPoolMethod(obj, name) {
		return nil, false
	}
	return poolKey(args[0]), true
}

// scanResets records, for each sync.Pool of the package, whether the
// values taken from it are Reset (or may be, out of sight) and whether any
// Get from it is seen at all.
func (c *checker) scanResets() {
	c.resets = make(map[types.Object]bool)
	c.gets = make(map[types.Object]bool)
	for _, fn := range c.fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				call, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				k, ok := syncPoolCall(call.Common(), "Get")
				if !ok || k == nil {
					continue
				}
				c.gets[k] = true
				rep, _ := c.vs.of(call)
				if c.resetIn(fn, rep) {
					c.resets[k] = true
				}
			}
		}
	}
}

// resetIn reports whether fn resets the value of class rep, hands it to a
// function of this package that does, or returns it.
func (c *checker) resetIn(fn *ssa.Function, rep ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch x := in.(type) {
			case *ssa.Return:
				if c.returnsClass(x, rep) {
					return true
				}
			case ssa.CallInstruction:
				if c.callResets(x.Common(), rep) {
					return true
				}
			}
		}
	}
	return false
}

// returnsClass reports whether ret returns the value of class rep.
func (c *checker) returnsClass(ret *ssa.Return, rep ssa.Value) bool {
	for _, v := range ret.Results {
		if r, _ := c.vs.of(v); r == rep {
			return true
		}
	}
	return false
}

// callResets reports whether a call resets the value of class rep, or
// passes it to a function of this package that resets that parameter.
func (c *checker) callResets(common *ssa.CallCommon, rep ssa.Value) bool {
	if c.isResetOf(common, rep) {
		return true
	}
	callee, args := callTarget(common)
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg {
		return false
	}
	for i, a := range args {
		if r, _ := c.vs.of(a); r == rep && i < len(callee.Params) {
			pr, _ := c.vs.of(callee.Params[i])
			if c.resetInShallow(callee, pr) {
				return true
			}
		}
	}
	return false
}

// isResetOf reports whether a call is Reset or Truncate on the value of
// class rep.
func (c *checker) isResetOf(common *ssa.CallCommon, rep ssa.Value) bool {
	recv, name := methodCall(common)
	if recv == nil || (name != "Reset" && name != "Truncate") {
		return false
	}
	r, _ := c.vs.of(recv)
	return r == rep
}

// resetInShallow reports whether fn itself calls Reset or Truncate on the
// value of class rep.
func (c *checker) resetInShallow(fn *ssa.Function, rep ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok && c.isResetOf(ci.Common(), rep) {
				return true
			}
		}
	}
	return false
}

// checkSyncPoolPut reports a non-pointer value Put into a sync.Pool, and a
// resettable buffer Put into a pool whose values nobody resets.
func (c *checker) checkSyncPoolPut(fn *ssa.Function, r release) {
	mi, ok := r.arg.(*ssa.MakeInterface)
	if !ok {
		return
	}
	t := mi.X.Type()
	if !pointerShaped(t) {
		return
	}
	ts := types.TypeString(t, types.RelativeTo(c.pass.Pkg))
	k, _ := syncPoolCall(r.instr.Common(), "Put")
	if k == nil || k.Exported() || !c.gets[k] || c.resets[k] || !hasReset(t) {
		return
	}
	// The value must come from a Get of this pool in this function.
	fromGet := false
	for _, m := range c.vs.members[r.root] {
		if call, ok := m.(*ssa.Call); ok && call.Parent() == fn {
			if gk, ok := syncPoolCall(call.Common(), "Get"); ok && gk == k {
				fromGet = true
			}
		}
	}
	if !fromGet {
		return
	}
	c.report(r.instr.Pos(), fmt.Sprintf("%s (%s) is Put into %s without Reset, and no Get from it resets: the next Get returns its old contents; call Reset before Put or after Get", c.name(r), ts, k.Name()), 0)
}

// checkNonPointer reports a non-pointer value Put into a sync.Pool.
func (c *checker) checkNonPointer(ci ssa.CallInstruction) {
	if _, ok := syncPoolCall(ci.Common(), "Put"); !ok {
		return
	}
	_, args := callTarget(ci.Common())
	if len(args) < 2 {
		return
	}
	mi, ok := args[1].(*ssa.MakeInterface)
	if !ok {
		return
	}
	t := mi.X.Type()
	if pointerShaped(t) || c.pass.TypesSizes.Sizeof(t) == 0 {
		return
	}
	ts := types.TypeString(t, types.RelativeTo(c.pass.Pkg))
	fix := fmt.Sprintf("put a *%s instead, or use reuse.Pool[%s]", ts, ts)
	if _, ok := t.Underlying().(*types.Slice); ok {
		fix = fmt.Sprintf("put a *%s instead, or use reuse.Pool[%s] or reuse.Slices", ts, ts)
	}
	c.report(ci.Pos(), fmt.Sprintf("sync.Pool.Put of a non-pointer %s allocates on every call to box it: %s", ts, fix), 0)
}

// pointerShaped reports whether a value of type t fits in an interface
// without an allocation.
func pointerShaped(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// hasReset reports whether t has a method Reset().
func hasReset(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Reset")
	f, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := f.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 0
}
