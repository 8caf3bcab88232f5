package poolvet

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// computeFacts finds the functions of the package that give back a
// parameter on every path that returns, and exports that as a fact. A
// helper may call another helper declared later, so it iterates to a fixed
// point.
func (c *checker) computeFacts() {
	for iter := 0; iter < 8; iter++ {
		changed := false
		for _, fn := range c.fns {
			f := c.releasesOfFunc(fn)
			old := c.facts[fn]
			if f == nil {
				continue
			}
			if old == nil || len(old.Put) != len(f.Put) || len(old.Close) != len(f.Close) || len(old.Unref) != len(f.Unref) || len(old.PutIf) != len(f.PutIf) {
				c.facts[fn] = f
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	c.computeTakes()
	for fn, f := range c.facts {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic == "" && obj.Pkg() == c.pass.Pkg {
			c.pass.ExportObjectFact(obj, f)
		}
	}
}

// releasesOfFunc returns the fact for fn, or nil if it releases none of its
// parameters (or free variables) on every path.
func (c *checker) releasesOfFunc(fn *ssa.Function) *releasesFact {
	if len(fn.Blocks) == 0 {
		return nil
	}
	rels := c.releasesIn(fn)
	if len(rels) == 0 {
		return nil
	}
	rels = append(rels, c.boxedReleases(fn, rels)...)
	var f releasesFact
	for i, v := range candidates(fn) {
		c.addReleases(&f, fn, i, v, rels)
	}
	if len(f.Put) == 0 && len(f.Close) == 0 && len(f.Unref) == 0 && len(f.PutIf) == 0 {
		return nil
	}
	return &f
}

// addReleases adds to f how fn, with its releases rels, gives back its
// candidate v, of index i: Put only on the paths its result signals (when
// the signal agrees with the candidates' before it), or else Put, Closed
// or (when not Put) dropped by a counted Put on every path.
func (c *checker) addReleases(f *releasesFact, fn *ssa.Function, i int, v ssa.Value, rels []release) {
	rep, _ := c.vs.of(v)
	if res, when, ok := c.signalled(fn, rep, rels); ok && (len(f.PutIf) == 0 || res == f.Result && when == f.When) {
		f.PutIf = append(f.PutIf, i)
		f.Result, f.When = res, when
		return
	}
	if c.givenBack(fn, rep, put, rels) {
		f.Put = append(f.Put, i)
	}
	if c.givenBack(fn, rep, closeHandle, rels) {
		f.Close = append(f.Close, i)
	}
	if !slices.Contains(f.Put, i) && c.givenBack(fn, rep, unref, rels) {
		f.Unref = append(f.Unref, i)
	}
}

// candidates lists what a fact of fn indexes: its parameters, then its
// free variables.
func candidates(fn *ssa.Function) []ssa.Value {
	cands := make([]ssa.Value, 0, len(fn.Params)+len(fn.FreeVars))
	for _, p := range fn.Params {
		cands = append(cands, p)
	}
	for _, fv := range fn.FreeVars {
		cands = append(cands, fv)
	}
	return cands
}

// releasesIn lists the releases of fn, but those in a go statement.
func (c *checker) releasesIn(fn *ssa.Function) []release {
	var rels []release
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok {
				if _, isGo := in.(*ssa.Go); !isGo {
					rels = append(rels, c.releasesAt(ci)...)
				}
			}
		}
	}
	return rels
}

// givenBack reports whether fn releases the value of class rep with a
// release of kind k on every path that returns.
func (c *checker) givenBack(fn *ssa.Function, rep ssa.Value, k kind, rels []release) bool {
	gen := releaseBlocks(rep, k, rels)
	if len(gen) == 0 {
		return false
	}
	c.addOwnerBranches(fn, rep, k, gen)
	return mustPass(fn, gen)
}

// releaseBlocks returns the blocks of rels that release the value of
// class rep with a release of kind k.
func releaseBlocks(rep ssa.Value, k kind, rels []release) map[*ssa.BasicBlock]bool {
	gen := make(map[*ssa.BasicBlock]bool)
	for _, r := range rels {
		// A function that drops a reference on every path, or Puts the
		// value on some of them, drops it.
		// A release its result signals may not have happened.
		if r.root == rep && (r.kind == k && (r.signal == nil || k == unref) || k == unref && r.kind == put) {
			gen[r.instr.Block()] = true
		}
	}
	return gen
}

// addOwnerBranches adds to gen the blocks of fn that end in a branch after
// which the caller no longer owns the value of class rep, whichever way
// it goes.
//
// A branch on the value alone (a nil check, a size limit) decides
// between giving it back and dropping it: either way the caller no
// longer owns it. So does a branch of a pool type's method on the
// value and a limit the pool keeps in an atomic (bytebufferpool's Put
// drops buffers larger than the size it calibrated).
func (c *checker) addOwnerBranches(fn *ssa.Function, rep ssa.Value, k kind, gen map[*ssa.BasicBlock]bool) {
	var pool ssa.Value
	if recv := fn.Signature.Recv(); recv != nil && len(fn.Params) > 0 && holdsSyncPool(recv.Type()) {
		pool, _ = c.vs.of(fn.Params[0])
	}
	for _, b := range fn.Blocks {
		// A branch on a reference count does not: others own it then.
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if ok && c.dependsOnly(iff.Cond, rep, pool, 0) && (k == unref || !c.counterCond(iff.Cond, rep, c.counterFields())) {
			gen[b] = true
		}
	}
}

// mustPass reports whether every path from fn's entry to a return passes
// through a block in gen.
func mustPass(fn *ssa.Function, gen map[*ssa.BasicBlock]bool) bool {
	out := passedOn(fn, gen)
	returns := 0
	for _, b := range fn.Blocks {
		if isReturn(b) {
			returns++
			if !out[b] {
				return false
			}
		}
	}
	return returns > 0
}

// isReturn reports whether b is a reachable block that returns.
func isReturn(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	return ok && (b.Index == 0 || len(b.Preds) > 0)
}

// passedOn returns the blocks whose end every path from fn's entry reaches
// through a block in gen.
func passedOn(fn *ssa.Function, gen map[*ssa.BasicBlock]bool) map[*ssa.BasicBlock]bool {
	out := make(map[*ssa.BasicBlock]bool, len(fn.Blocks))
	for _, b := range fn.Blocks {
		out[b] = true
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			in := b.Index != 0
			if b.Index != 0 {
				for _, p := range b.Preds {
					in = in && out[p]
				}
			}
			o := in || gen[b]
			if o != out[b] {
				out[b] = o
				changed = true
			}
		}
	}
	return out
}

// dependsOnly reports whether v is computed from the class rep, constants
// and globals alone, or also from the class other (if not nil) read by a
// function of sync/atomic (a pool's calibrated limit).
func (c *checker) dependsOnly(v ssa.Value, rep, other ssa.Value, depth int) bool {
	return c.dependsOnlyIn(v, rep, other, false, depth)
}

// dependsOnlyIn is dependsOnly at recursion depth depth, where atomic
// reports whether v is an argument of a function of sync/atomic.
func (c *checker) dependsOnlyIn(v ssa.Value, rep, other ssa.Value, atomic bool, depth int) bool {
	if depth > 10 {
		return false
	}
	if r, _ := c.vs.of(v); r == rep || atomic && other != nil && r == other {
		return true
	}
	if sv := storedLoad(v); sv != nil {
		return c.dependsOnlyIn(sv, rep, other, atomic, depth+1)
	}
	switch x := v.(type) {
	case *ssa.Const, *ssa.Global:
		return true
	case *ssa.Call:
		return c.callDependsOnly(x, rep, other, atomic, depth)
	case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.FieldAddr, *ssa.Field, *ssa.Extract, *ssa.IndexAddr, *ssa.Index:
		return c.operandsDependOnly(v.(ssa.Instruction), rep, other, atomic, depth)
	}
	return false
}

// storedLoad returns the value stored once into the variable that v loads
// (a parameter whose address is taken): the value v is. It returns nil
// when v is not such a load.
func storedLoad(v ssa.Value) ssa.Value {
	x, ok := v.(*ssa.UnOp)
	if !ok || x.Op != token.MUL {
		return nil
	}
	a, ok := x.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	return storedOnce(a)
}

// callDependsOnly is dependsOnlyIn for the result of the call x: a call of
// a static function or a builtin, or a method call on a value that itself
// qualifies, with arguments that all qualify (those of a function of
// sync/atomic may also read the class other).
func (c *checker) callDependsOnly(x *ssa.Call, rep, other ssa.Value, atomic bool, depth int) bool {
	if x.Call.IsInvoke() {
		if !c.dependsOnlyIn(x.Call.Value, rep, other, atomic, depth+1) {
			return false
		}
	} else {
		switch x.Call.Value.(type) {
		case *ssa.Function, *ssa.Builtin:
		default:
			return false
		}
	}
	inAtomic := atomic
	if f, ok := x.Call.Value.(*ssa.Function); ok && f.Pkg != nil && f.Pkg.Pkg.Path() == "sync/atomic" {
		inAtomic = true
	}
	for _, a := range x.Call.Args {
		if !c.dependsOnlyIn(a, rep, other, inAtomic, depth+1) {
			return false
		}
	}
	return true
}

// operandsDependOnly is dependsOnlyIn for the value of the instruction in:
// each of its operands qualifies.
func (c *checker) operandsDependOnly(in ssa.Instruction, rep, other ssa.Value, atomic bool, depth int) bool {
	for _, op := range in.Operands(nil) {
		if *op != nil && !c.dependsOnlyIn(*op, rep, other, atomic, depth+1) {
			return false
		}
	}
	return true
}

// computeTakes adds to the facts the results that hand out pooled values
// (see releasesFact.Takes). A Get wrapper may call another one, so it
// iterates to a fixed point too.
func (c *checker) computeTakes() {
	for iter := 0; iter < 8; iter++ {
		changed := false
		for _, fn := range c.fns {
			t, through := c.takesOfFunc(fn)
			if len(t) == 0 {
				continue
			}
			f := c.facts[fn]
			if f == nil {
				f = new(releasesFact)
				c.facts[fn] = f
			}
			if len(f.Takes) != len(t) || len(f.Through) != len(through) {
				f.Takes, f.Through = t, through
				changed = true
			}
			if n := c.nilOnErr(fn, t[0]); n != f.NilOnErr {
				f.NilOnErr = n
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// takesOfFunc returns the results of fn that, on every return, are a
// value taken from a pool or new memory, and on one at least a pooled one,
// of a type that a function of the package gives back; and the
// parameters the first of them may be instead (see throughParams).
func (c *checker) takesOfFunc(fn *ssa.Function) ([]int, []int) {
	res := fn.Signature.Results()
	if res.Len() == 0 || len(fn.Blocks) == 0 {
		return nil, nil
	}
	taken := c.takenIn(fn)
	if len(taken) == 0 {
		return nil, nil
	}
	var out, through []int
	for i := 0; i < res.Len(); i++ {
		if t := res.At(i).Type(); !c.givesBackType(t) && !c.takesWrapped(fn, t) {
			continue
		}
		if c.returnsTaken(fn, i, taken) {
			out = append(out, i)
		} else if th, ok := c.throughParams(fn, i, taken); ok && len(out) == 0 {
			out, through = append(out, i), th
		}
	}
	return out, through
}

// takenIn returns the classes of the values that fn's calls take from a
// pool.
func (c *checker) takenIn(fn *ssa.Function) map[ssa.Value]bool {
	taken := make(map[ssa.Value]bool)
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if call, ok := in.(*ssa.Call); ok {
				if v, _, _ := c.taken(call); v != nil {
					rep, _ := c.vs.of(v)
					taken[rep] = true
				}
			}
		}
	}
	return taken
}

// returnsTaken reports whether fn's result i is, on every return, a value
// of the classes taken or new memory, and on one at least a taken one.
func (c *checker) returnsTaken(fn *ssa.Function, i int, taken map[ssa.Value]bool) bool {
	n := fn.Signature.Results().Len()
	some, all := false, true
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != n {
			continue
		}
		v := ret.Results[i]
		if c.fromTaken(v, taken) {
			some = true
		} else if !fresh(v) {
			all = false
		}
	}
	return some && all
}

// nilOnErr reports whether result i of fn is nil on every return whose
// last result, of type error, is not nil: a constant nil beside the error,
// a constant nil error, or both forwarded from a call whose fact says so
// (nats-server's loadEntry returns decodeAppendEntry's results).
func (c *checker) nilOnErr(fn *ssa.Function, i int) bool {
	res := fn.Signature.Results()
	last := res.Len() - 1
	if last <= 0 || i == last || !types.Identical(res.At(last).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != res.Len() {
			continue
		}
		if isNilConst(ret.Results[i]) || isNilConst(ret.Results[last]) {
			continue
		}
		if !c.forwardsNilOnErr(ret.Results[i], ret.Results[last]) {
			return false
		}
	}
	return true
}

// forwardsNilOnErr reports whether v and err are the value and the last
// (error) result of one call whose fact says that value is nil beside an
// error.
func (c *checker) forwardsNilOnErr(val, err ssa.Value) bool {
	v, ok1 := val.(*ssa.Extract)
	e, ok2 := err.(*ssa.Extract)
	if !ok1 || !ok2 || v.Tuple != e.Tuple || e.Index != v.Tuple.Type().(*types.Tuple).Len()-1 {
		return false
	}
	call, ok := v.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	callee, _ := callTarget(call.Common())
	if callee == nil {
		return false
	}
	f := c.factOf(callee)
	return f != nil && f.NilOnErr && len(f.Takes) > 0 && f.Takes[0] == v.Index
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// givesBackType reports whether a function of the package gives back, on
// every path, a parameter of type t.
func (c *checker) givesBackType(t types.Type) bool {
	for fn, f := range c.facts {
		cands := candidates(fn)
		for _, i := range f.Put {
			if i < len(cands) && types.Identical(cands[i].Type(), t) {
				return true
			}
		}
	}
	return false
}

// takesWrapped reports whether fn takes a value of type t from a Get
// wrapper of another package (a call whose fact says it takes): that
// package gives such values back (go-sstables' allocateRecordBufferPooled
// returns a buffer of libp2p's go-buffer-pool).
func (c *checker) takesWrapped(fn *ssa.Function, t types.Type) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			callee, _ := callTarget(call.Common())
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg == c.pass.Pkg {
				continue
			}
			if f := c.factOf(callee); f == nil || len(f.Takes) == 0 {
				continue
			}
			if v, _, _ := c.taken(call); v != nil && types.Identical(v.Type(), t) {
				return true
			}
		}
	}
	return false
}

// fresh reports whether v is new memory or nil: what a Get wrapper
// returns when its pool cannot serve the size asked for.
func fresh(v ssa.Value) bool {
	for range 8 {
		switch x := v.(type) {
		case *ssa.Const, *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
			return true
		case *ssa.Slice:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// takenResult returns result i of a call: the call itself when it has one
// result, else its Extract of index i (nil if none).
func takenResult(call *ssa.Call, i int) ssa.Value {
	if call.Call.Signature().Results().Len() == 1 {
		return call
	}
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == i {
			return x
		}
	}
	return nil
}

// holdsSyncPool reports whether t, or what it points to, is a struct with
// a sync.Pool field (or an array of them, or a pointer to one): a pool
// type.
func holdsSyncPool(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if a, ok := ft.(*types.Array); ok {
			ft = a.Elem()
		}
		if isSyncPool(ft) {
			return true
		}
	}
	return false
}

func isSyncPool(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Pool"
}

// boxedReleases returns, for the Puts of fn, releases of the slices stored
// into a field of the value Put: the box carries them into the pool
// (libp2p's go-buffer-pool Puts a *bufp holding the slice given back).
func (c *checker) boxedReleases(fn *ssa.Function, rels []release) []release {
	var out []release
	for _, r := range rels {
		if r.kind != put {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				st, ok := in.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if rep, _ := c.vs.of(fa.X); rep != r.root {
					continue
				}
				if _, ok := st.Val.Type().Underlying().(*types.Slice); !ok {
					continue // a struct's back pointer (pm.o = o) is not pooled with it
				}
				root, derived := c.vs.of(st.Val)
				if derived || c.isConstClass(root) {
					continue
				}
				boxed := r
				boxed.root = root
				boxed.arg = st.Val
				out = append(out, boxed)
			}
		}
	}
	return out
}

// fromTaken reports whether v is a value of the classes taken, or a slice
// loaded from a field of one (a box's buffer, which the box's Get clears
// before it returns it).
func (c *checker) fromTaken(v ssa.Value, taken map[ssa.Value]bool) bool {
	for range 8 {
		if rep, _ := c.vs.of(v); taken[rep] {
			return true
		}
		switch x := v.(type) {
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok || x.Op != token.MUL {
				return false
			}
			rep, _ := c.vs.of(fa.X)
			return taken[rep]
		default:
			return false
		}
	}
	return false
}

// killNilBranch cuts the branches taken when the value taken is nil (a Get
// wrapper that returns nil when it has nothing, nats-server's loadEntry):
// nothing to give back there.
func killNilBranch(kills map[*ssa.BasicBlock][]int, v ssa.Value) {
	for _, r := range *v.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		k, ok := cmp.Y.(*ssa.Const)
		if !ok || !k.IsNil() {
			if k, ok = cmp.X.(*ssa.Const); !ok || !k.IsNil() {
				continue
			}
		}
		for _, rr := range *cmp.Referrers() {
			iff, ok := rr.(*ssa.If)
			if !ok {
				continue
			}
			isNil := iff.Block().Succs[0]
			if cmp.Op == token.NEQ {
				isNil = iff.Block().Succs[1]
			}
			kills[isNil] = append(kills[isNil], 0)
		}
	}
}

// takenByFact reports whether call takes its value through a Get wrapper's
// fact rather than from a pool's own Get, of a type with methods. Such a value is held to be
// leaked only where the function gives it back on some other path: a
// wrapper's result may also flow on through the methods of a fluent
// builder that return their receiver (zerolog's l.Debug().Msg(...)),
// which the leak check does not follow.
func (c *checker) takenByFact(call *ssa.Call) bool {
	callee, _ := callTarget(call.Common())
	if callee == nil {
		return false
	}
	if obj, ok := callee.Object().(*types.Func); ok && gets[methodKey(obj)] {
		return false
	}
	f := c.factOf(callee)
	return f != nil && len(f.Takes) > 0 && hasMethods(call.Call.Signature().Results().At(f.Takes[0]).Type())
}

// hasMethods reports whether a value of type t, or a pointer to it, has
// methods: without them it cannot flow on through a fluent builder, and
// a Get wrapper's []byte is leaked where it is not given back, as a Get's.
func hasMethods(t types.Type) bool {
	if types.NewMethodSet(t).Len() > 0 {
		return true
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	_, isIface := t.Underlying().(*types.Interface)
	return !isPtr && !isIface && types.NewMethodSet(types.NewPointer(t)).Len() > 0
}

// releasedIn reports whether one of rels gives back the class rep.
func releasedIn(rels []release, rep ssa.Value) bool {
	for _, r := range rels {
		if r.root == rep {
			return true
		}
	}
	return false
}
