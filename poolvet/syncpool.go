package poolvet

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// poolKey names the pool a method is called on: a package-level variable
// or a struct field, held directly or through a pointer. It returns nil
// when it cannot tell.
func poolKey(recv ssa.Value) types.Object {
	if l, ok := recv.(*ssa.UnOp); ok && l.Op == token.MUL {
		recv = l.X // a pool held through a pointer: var p = &sync.Pool{}
	}
	switch x := recv.(type) {
	case *ssa.Global:
		return x.Object()
	case *ssa.FieldAddr:
		return fieldOf(x)
	}
	return nil
}

// A poolCall is a call to a pool's Get or Put whose values may need a
// Reset: sync.Pool's, or reuse.Pool's.
type poolCall struct {
	key  types.Object // the pool, or nil when unknown
	sync bool         // sync.Pool, not reuse.Pool
}

// poolCallOf returns the pool of a call to method name (Get or Put) of
// sync.Pool or reuse.Pool.
func poolCallOf(common *ssa.CallCommon, name string) (poolCall, bool) {
	fn, args := callTarget(common)
	if fn == nil || len(args) == 0 {
		return poolCall{}, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return poolCall{}, false
	}
	switch methodKey(obj) {
	case "sync.Pool." + name:
		return poolCall{poolKey(args[0]), true}, true
	case module + ".Pool." + name:
		return poolCall{poolKey(args[0]), false}, true
	}
	return poolCall{}, false
}

// syncPoolCall returns the pool of a call to the sync.Pool method name.
func syncPoolCall(common *ssa.CallCommon, name string) (types.Object, bool) {
	pc, ok := poolCallOf(common, name)
	if !ok || !pc.sync {
		return nil, false
	}
	return pc.key, true
}

// scanResets records, for each pool of the package, whether any Get from it
// is seen, whether the values of some Get are returned (reset, or not, out
// of sight), and whether every Get resets its value before using it.
func (c *checker) scanResets() {
	c.resets = make(map[types.Object]bool)
	c.gets = make(map[types.Object]bool)
	c.dirtyGet = make(map[types.Object]bool)
	c.hooks = make(map[types.Object]bool)
	fns := c.fns
	if init := c.pkg.Func("init"); init != nil {
		fns = append(slices.Clip(fns), init) // package-level composite literals
	}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				c.scanHook(in)
				call, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				pc, ok := poolCallOf(call.Common(), "Get")
				if !ok || pc.key == nil {
					continue
				}
				c.gets[pc.key] = true
				rep, _ := c.vs.of(call)
				if c.returnedIn(fn, rep) {
					c.resets[pc.key] = true
				}
				if !c.resetBeforeUse(fn, call, rep) {
					c.dirtyGet[pc.key] = true
				}
			}
		}
	}
}

// scanHook records the reuse.Pools whose Reset (or Accept) hook is set: a
// store to that field of the pool, or of the whole pool. A store the key of which
// is unknown marks every pool (nil key).
func (c *checker) scanHook(in ssa.Instruction) {
	st, ok := in.(*ssa.Store)
	if !ok {
		return
	}
	if isReusePool(st.Val.Type()) {
		c.hooks[poolKey(st.Addr)] = true
		return
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	if f := fieldOf(fa); f == nil || (f.Name() != "Reset" && f.Name() != "Accept") {
		return // Accept may reset the value it keeps
	}
	if p, ok := fa.X.Type().Underlying().(*types.Pointer); ok && isReusePool(p.Elem()) {
		c.hooks[poolKey(fa.X)] = true
	}
}

// isReusePool reports whether t is a reuse.Pool.
func isReusePool(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == module && obj.Name() == "Pool"
}

// returnedIn reports whether fn returns the value of class rep.
func (c *checker) returnedIn(fn *ssa.Function, rep ssa.Value) bool {
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && c.returnsClass(ret, rep) {
			return true
		}
	}
	return false
}

// resetKills returns, per block of fn, where the value of class rep is
// reset (Reset, Truncate, or a function of this package that resets it)
// or defined afresh.
func (c *checker) resetKills(fn *ssa.Function, rep ssa.Value) map[*ssa.BasicBlock][]int {
	k := c.kills(fn, rep)
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok {
				if _, d := in.(*ssa.Defer); !d && c.callResets(ci.Common(), rep) {
					k[b] = append(k[b], i)
				}
			}
		}
	}
	return k
}

// resetBeforeUse reports whether every path from get resets its value
// before anything else uses it.
func (c *checker) resetBeforeUse(fn *ssa.Function, get ssa.Instruction, rep ssa.Value) bool {
	return len(c.dirtyingUses(fn, get, rep)) == 0
}

// dirtyingUses returns the uses of the value of class rep on the paths from
// get that pass no Reset: what may write to it or read old contents. A
// release is not one.
func (c *checker) dirtyingUses(fn *ssa.Function, get ssa.Instruction, rep ssa.Value) []ssa.Instruction {
	var uses []ssa.Instruction
	for _, in := range after(get, c.resetKills(fn, rep)).instrs {
		if _, ok := in.(*ssa.DebugRef); ok || !c.usesClass(in, rep) {
			continue
		}
		if ci, ok := in.(ssa.CallInstruction); ok && len(c.releasesAt(ci)) > 0 {
			continue
		}
		uses = append(uses, in)
	}
	return uses
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

// checkResetPut reports a resettable value Put, on some path from the Get
// that took it, without a Reset, into a pool whose Gets do not all reset
// either: a sync.Pool, or a reuse.Pool without a Reset hook.
func (c *checker) checkResetPut(fn *ssa.Function, r release) {
	pc, t, ok := c.unresetPool(r)
	if !ok {
		return
	}
	get := c.getOf(fn, r.root, pc.key)
	if get == nil || !c.dirtyAt(fn, get, r) {
		return
	}
	ts := types.TypeString(t, types.RelativeTo(c.pass.Pkg))
	fixes := c.resetFix(r, get.Pos())
	if pc.sync {
		c.reportFix(r.instr.Pos(), fmt.Sprintf("%s (%s) is Put into %s without Reset, and no Get from it resets: the next Get returns its old contents; call Reset before Put or after Get", c.name(r), ts, pc.key.Name()), 0, fixes)
		return
	}
	c.reportFix(r.instr.Pos(), fmt.Sprintf("%s (%s) is Put into %s without Reset, and the pool has no Reset hook: the next Get returns its old contents; set the pool's Reset, or call Reset before Put", c.name(r), ts, pc.key.Name()), 0, fixes)
}

// unresetPool returns the pool r Puts into and the type of the value, when
// that pool may hand out dirty values: unexported, with a Get that uses its
// value before a Reset, none returned out of sight, and for a reuse.Pool no
// hook; and the value has a Reset method.
func (c *checker) unresetPool(r release) (poolCall, types.Type, bool) {
	pc, ok := poolCallOf(r.instr.Common(), "Put")
	if !ok || pc.key == nil || pc.key.Exported() || !c.gets[pc.key] || c.resets[pc.key] || !c.dirtyGet[pc.key] {
		return pc, nil, false
	}
	if !pc.sync && (c.hooks[pc.key] || c.hooks[nil]) {
		return pc, nil, false
	}
	t := r.arg.Type()
	if mi, ok := r.arg.(*ssa.MakeInterface); ok {
		t = mi.X.Type()
	}
	return pc, t, pointerShaped(t) && hasReset(t)
}

// getOf returns the Get of pool key in fn that took the value of class
// root, or nil.
func (c *checker) getOf(fn *ssa.Function, root ssa.Value, key types.Object) *ssa.Call {
	for _, m := range c.vs.members[root] {
		if call, ok := m.(*ssa.Call); ok && call.Parent() == fn {
			if pc, ok := poolCallOf(call.Common(), "Get"); ok && pc.key == key {
				return call
			}
		}
	}
	return nil
}

// dirtyAt reports whether some path from get passes a use of the value and
// then reaches the Put r without a Reset: for a deferred Put, a return.
func (c *checker) dirtyAt(fn *ssa.Function, get *ssa.Call, r release) bool {
	kills := c.resetKills(fn, r.root)
	for _, u := range c.dirtyingUses(fn, get, r.root) {
		reg := after(u, kills)
		if !r.deferred {
			if reg.in[r.instr] {
				return true
			}
			continue
		}
		for _, in := range reg.instrs {
			switch in.(type) {
			case *ssa.RunDefers, *ssa.Return:
				return true
			}
		}
	}
	return false
}

// checkNonPointer reports a non-pointer value Put into a sync.Pool.
func (c *checker) checkNonPointer(ci ssa.CallInstruction) {
	key, ok := syncPoolCall(ci.Common(), "Put")
	if !ok {
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
	var fixes []analysis.SuggestedFix
	if key != nil {
		fixes = c.nonPointerFix(key, t)
	}
	c.reportFix(ci.Pos(), fmt.Sprintf("sync.Pool.Put of a non-pointer %s allocates on every call to box it: %s", ts, fix), 0, fixes)
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
