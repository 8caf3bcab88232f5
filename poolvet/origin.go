package poolvet

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// An origin says where a value's memory comes from: the root value it is
// the same object as (derived false) or shares memory with (derived true:
// a subslice, a field, the result of Bytes).
type origin struct {
	root    ssa.Value
	derived bool
}

// values tracks value identity and memory sharing for the functions of one
// package. Local variables that closures capture, or whose address is taken
// by the compiler, live in an Alloc; one that is stored exactly once is the
// same object as the value stored, and every load of it, in the function or
// in its closures, is that object too.
type values struct {
	memo   map[ssa.Value]origin
	parent map[ssa.Value]ssa.Value // union-find over roots
	// single maps a once-stored Alloc, and the FreeVars bound to it, to
	// that single Store.
	single map[ssa.Value]*ssa.Store
	// members lists every root merged into a class, by representative.
	members map[ssa.Value][]ssa.Value
	// cleared holds the struct fields the package sets to their zero
	// value: code that clears a field before Put detaches what the field
	// pointed to, so a slice loaded from it is not pooled memory.
	cleared map[*types.Var]bool
	// fields maps the class of a field's loads to the field.
	fields map[ssa.Value]fieldLoc
}

func newValues(fns []*ssa.Function) *values {
	vs := &values{
		memo:    make(map[ssa.Value]origin),
		parent:  make(map[ssa.Value]ssa.Value),
		single:  make(map[ssa.Value]*ssa.Store),
		members: make(map[ssa.Value][]ssa.Value),
		cleared: make(map[*types.Var]bool),
		fields:  make(map[ssa.Value]fieldLoc),
	}
	vs.scanStores(fns)
	forEachInstr(fns, func(in ssa.Instruction) {
		if v, ok := in.(ssa.Value); ok {
			vs.origin(v)
		}
	})
	vs.mergeSingles()
	vs.mergeFieldLoads(fns)
	for r := range vs.memoRoots() {
		rep := vs.find(r)
		vs.members[rep] = append(vs.members[rep], r)
	}
	return vs
}

// forEachInstr calls f on every instruction of fns, in order.
func forEachInstr(fns []*ssa.Function, f func(ssa.Instruction)) {
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				f(in)
			}
		}
	}
}

// scanStores records the once-stored Allocs and the fields the package
// clears.
func (vs *values) scanStores(fns []*ssa.Function) {
	forEachInstr(fns, func(in ssa.Instruction) {
		switch x := in.(type) {
		case *ssa.Alloc:
			vs.addAlloc(x)
		case *ssa.Store:
			if f := clearedField(x); f != nil {
				vs.cleared[f] = true
			}
		}
	})
}

// clearedField returns the field st sets to its zero value, or nil.
func clearedField(st *ssa.Store) *types.Var {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	if c, ok := st.Val.(*ssa.Const); !ok || !(c.IsNil() || isZeroConst(c)) {
		return nil
	}
	return fieldOf(fa)
}

// mergeSingles merges each once-stored Alloc with the value stored in it.
func (vs *values) mergeSingles() {
	for loc, st := range vs.single {
		o, _ := vs.origin(st.Val)
		if !o.derived {
			vs.union(o.root, vs.find(loc))
		}
	}
}

// A fieldKey is a field of one value, in one function.
type fieldKey struct {
	fn   *ssa.Function
	base ssa.Value
	f    *types.Var
}

// mergeFieldLoads makes the pointers loaded from a field of a value, in
// one function, one value while they read what the same store left there:
// x.buf after Put(x.buf) is the buffer given back, but after x.buf = y it is
// y (old := c.h; c.h = pool.Get(); pool.Put(old) Puts the old buffer
// only). A store to the field, or a call passed the value, starts a new
// value (see fieldKills).
func (vs *values) mergeFieldLoads(fns []*ssa.Function) {
	loads := make(map[fieldKey][]*ssa.UnOp)
	var keys []fieldKey
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				l, k, ok := vs.fieldLoad(fn, in)
				if !ok {
					continue
				}
				if _, seen := loads[k]; !seen {
					keys = append(keys, k)
				}
				loads[k] = append(loads[k], l)
			}
		}
	}
	for _, k := range keys {
		ls := loads[k]
		def := vs.reachingStores(k)
		first := make(map[any]ssa.Value)
		for _, l := range ls {
			d := def(l)
			if f, ok := first[d]; ok {
				vs.union(l, f)
			} else {
				first[d] = l
			}
		}
		for _, l := range first {
			vs.fields[vs.find(l)] = fieldLoc{k.base, k.f}
		}
	}
}

// A defPoint is where a field may have been written: an instruction (a
// store, a call), a block where paths with different writes meet, or the
// function's entry (nil).
type defPoint struct {
	in ssa.Instruction
	b  *ssa.BasicBlock
}

// reachingStores returns a function that names, for a load of field k (or
// any instruction), the last write to it on every path that reaches the
// load: two loads with the same write read the same value.
func (vs *values) reachingStores(k fieldKey) func(ssa.Instruction) any {
	fn := k.fn
	writes := func(in ssa.Instruction) bool { return vs.writesField(in, k) }
	out := make(map[*ssa.BasicBlock]defPoint, len(fn.Blocks))
	in := make(map[*ssa.BasicBlock]defPoint, len(fn.Blocks))
	last := func(b *ssa.BasicBlock, entry defPoint, upto int) defPoint {
		d := entry
		for _, x := range b.Instrs[:upto] {
			if writes(x) {
				d = defPoint{in: x}
			}
		}
		return d
	}
	for changed, iter := true, 0; changed && iter < 50; iter++ {
		changed = false
		for _, b := range fn.Blocks {
			d := defPoint{}
			for i, p := range b.Preds {
				if i == 0 {
					d = out[p]
				} else if out[p] != d {
					d = defPoint{b: b}
					break
				}
			}
			in[b] = d
			o := last(b, d, len(b.Instrs))
			if o != out[b] {
				out[b] = o
				changed = true
			}
		}
	}
	return func(l ssa.Instruction) any {
		b := l.Block()
		return last(b, in[b], slices.Index(b.Instrs, l))
	}
}

// writesField reports whether in may write field k: a store to that field
// of any value, or a call passed the value holding it.
func (vs *values) writesField(in ssa.Instruction, k fieldKey) bool {
	switch x := in.(type) {
	case *ssa.Store:
		fa, ok := x.Addr.(*ssa.FieldAddr)
		return ok && fieldOf(fa) == k.f
	case ssa.CallInstruction:
		common := x.Common()
		vals := append([]ssa.Value{common.Value}, common.Args...)
		if mc, ok := common.Value.(*ssa.MakeClosure); ok {
			vals = append(vals, mc.Bindings...)
		}
		for _, v := range vals {
			if r, _ := vs.of(v); r == k.base {
				return true
			}
		}
	}
	return false
}

// fieldLoad reports whether in loads a pointer from a field of a value
// that is its own root, and returns the load and the field.
func (vs *values) fieldLoad(fn *ssa.Function, in ssa.Instruction) (*ssa.UnOp, fieldKey, bool) {
	l, ok := in.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return nil, fieldKey{}, false
	}
	fa, ok := l.X.(*ssa.FieldAddr)
	if !ok || owning(l.Type()) || !aliasing(l.Type()) {
		return nil, fieldKey{}, false
	}
	if o := vs.same(l); o.root != ssa.Value(l) {
		return nil, fieldKey{}, false
	}
	base, derived := vs.of(fa.X)
	if derived {
		return nil, fieldKey{}, false
	}
	f := fieldOf(fa)
	if f == nil {
		return nil, fieldKey{}, false
	}
	return l, fieldKey{fn, base, f}, true
}

// A fieldLoc is a field of a value, whose loads form one class.
type fieldLoc struct {
	base ssa.Value // class of the value holding the field
	f    *types.Var
}

func (vs *values) memoRoots() map[ssa.Value]bool {
	m := make(map[ssa.Value]bool)
	for _, o := range vs.memo {
		m[o.root] = true
	}
	for loc := range vs.single {
		m[loc] = true
	}
	return m
}

// addAlloc records a if it is stored exactly once, across its function and
// the closures that capture it, and used only by loads.
func (vs *values) addAlloc(a *ssa.Alloc) {
	var w allocWalk
	if !w.walk(a) || len(w.stores) != 1 || isResultSlot(a) {
		return
	}
	for _, l := range w.locs {
		vs.single[l] = w.stores[0]
		if l != ssa.Value(a) {
			vs.union(l, a)
		}
	}
}

// An allocWalk follows a local variable into the closures that capture
// it, collecting its locations and the stores to them.
type allocWalk struct {
	stores []*ssa.Store
	locs   []ssa.Value
}

// walk reports whether every use of loc, and of the FreeVars bound to it,
// is a load, a store to it or a capture.
func (w *allocWalk) walk(loc ssa.Value) bool {
	w.locs = append(w.locs, loc)
	for _, r := range *loc.Referrers() {
		if !w.use(loc, r) {
			return false
		}
	}
	return true
}

// use reports whether r is a use of loc that keeps it a local variable.
func (w *allocWalk) use(loc ssa.Value, r ssa.Instruction) bool {
	switch r := r.(type) {
	case *ssa.Store:
		if r.Addr != loc || r.Val == loc {
			return false
		}
		w.stores = append(w.stores, r)
	case *ssa.UnOp:
		return r.Op == token.MUL
	case *ssa.DebugRef:
	case *ssa.MakeClosure:
		fn := r.Fn.(*ssa.Function)
		for i, b := range r.Bindings {
			if b == loc && !w.walk(fn.FreeVars[i]) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

func (vs *values) find(v ssa.Value) ssa.Value {
	for {
		p, ok := vs.parent[v]
		if !ok || p == v {
			return v
		}
		if gp, ok := vs.parent[p]; ok {
			vs.parent[v] = gp
		}
		v = p
	}
}

func (vs *values) union(a, b ssa.Value) {
	a, b = vs.find(a), vs.find(b)
	if a != b {
		vs.parent[a] = b
	}
}

// of returns the class representative and derivedness of v's memory.
func (vs *values) of(v ssa.Value) (ssa.Value, bool) {
	o, _ := vs.origin(v)
	return vs.find(o.root), o.derived
}

// origin computes v's origin, before class merging.
func (vs *values) origin(v ssa.Value) (origin, bool) {
	if o, ok := vs.memo[v]; ok {
		return o, true
	}
	vs.memo[v] = origin{v, false} // cycle guard for phis
	o := vs.compute(v)
	vs.memo[v] = o
	return o, true
}

func (vs *values) same(x ssa.Value) origin {
	o, _ := vs.origin(x)
	return o
}

func (vs *values) shared(x ssa.Value) origin {
	o, _ := vs.origin(x)
	return origin{o.root, true}
}

// compute returns v's origin from its definition.
func (vs *values) compute(v ssa.Value) origin {
	if x, ok := sameObject(v); ok {
		return vs.same(x)
	}
	if x, ok := partOf(v); ok {
		return vs.shared(x)
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		return vs.load(x)
	case *ssa.Phi:
		return vs.phi(x)
	case *ssa.Call:
		return vs.call(x)
	}
	return origin{v, false}
}

// sameObject returns the value v is the same object as: a conversion, an
// interface made from it or a type assertion back.
func sameObject(v ssa.Value) (ssa.Value, bool) {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return x.X, true
	case *ssa.ChangeType:
		return x.X, true
	case *ssa.ChangeInterface:
		return x.X, true
	case *ssa.TypeAssert:
		return x.X, !x.CommaOk
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok && x.Index == 0 {
			return ta.X, true
		}
	case *ssa.Convert:
		return x.X, aliasing(x.Type()) && aliasing(x.X.Type())
	}
	return nil, false
}

// partOf returns the value whose memory v is part of: a subslice, a
// field, an element.
func partOf(v ssa.Value) (ssa.Value, bool) {
	switch x := v.(type) {
	case *ssa.SliceToArrayPointer:
		return x.X, true
	case *ssa.Slice:
		_, str := x.X.Type().Underlying().(*types.Basic)
		return x.X, !str
	case *ssa.FieldAddr:
		return x.X, true
	case *ssa.IndexAddr:
		return x.X, true
	case *ssa.Field:
		return x.X, aliasing(x.Type())
	case *ssa.Index:
		return x.X, aliasing(x.Type())
	}
	return nil, false
}

// load returns the origin of a unary operation: a load from a once-stored
// variable is the value stored; a slice or map loaded from pooled memory
// shares its backing store with the pooled value.
func (vs *values) load(x *ssa.UnOp) origin {
	if x.Op != token.MUL {
		return origin{x, false}
	}
	if _, ok := vs.single[x.X]; ok {
		return origin{x.X, false}
	}
	// A pointer loaded from pooled memory may point to the pooled
	// object's own part (its encoder) or to something shared (its server,
	// its connection): it is not counted, so that nothing false is
	// reported. A slice or map loaded from it is its memory.
	if owning(x.Type()) && !vs.detached(x.X) {
		return vs.shared(x.X)
	}
	return origin{x, false}
}

// phi returns the origin shared by a phi's edges, or the phi itself when
// they differ.
func (vs *values) phi(x *ssa.Phi) origin {
	var first origin
	for i, e := range x.Edges {
		o := vs.same(e)
		if o.root == ssa.Value(x) {
			continue
		}
		if i > 0 && first.root != nil && o.root != first.root {
			return origin{x, false}
		}
		if first.root == nil {
			first = o
		}
		first.derived = first.derived || o.derived
	}
	if first.root != nil {
		return first
	}
	return origin{x, false}
}

// call returns the origin of a call's result: append returns its first
// argument, and an aliasing method (Bytes) memory of its receiver.
func (vs *values) call(x *ssa.Call) origin {
	c := x.Common()
	if b, ok := c.Value.(*ssa.Builtin); ok && len(c.Args) > 0 {
		switch b.Name() {
		case "append":
			return vs.same(c.Args[0])
		case "String", "Slice", "StringData", "SliceData": // package unsafe
			return vs.shared(c.Args[0])
		}
	}
	if recv, name := methodCall(c); recv != nil && aliasMethods[name] && aliasing(x.Type()) {
		return vs.shared(recv)
	}
	return origin{x, false}
}

// detached reports whether addr is a field, or within a field, that the
// package clears.
func (vs *values) detached(addr ssa.Value) bool {
	for i := 0; i < 8; i++ {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		if f := fieldOf(fa); f != nil && vs.cleared[f] {
			return true
		}
		addr = fa.X
	}
	return false
}

// fieldOf returns the field fa addresses, or nil when its type is not a
// plain pointer to a struct (a type parameter's core type).
func fieldOf(fa *ssa.FieldAddr) *types.Var {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

func isZeroConst(c *ssa.Const) bool {
	return c.Value == nil
}

// owning reports whether t is a slice or map, whose backing store belongs
// to whatever holds it, or a struct or array holding one.
func owning(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	case *types.Struct:
		for i := range u.NumFields() {
			if owning(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return owning(u.Elem())
	}
	return false
}

// methodCall returns the receiver and name of a statically called method.
func methodCall(c *ssa.CallCommon) (ssa.Value, string) {
	if c.IsInvoke() {
		return c.Value, c.Method.Name()
	}
	fn, ok := c.Value.(*ssa.Function)
	if !ok || len(c.Args) == 0 {
		return nil, ""
	}
	if sig := fn.Signature; sig.Recv() == nil {
		return nil, ""
	}
	return c.Args[0], fn.Name()
}

// aliasing reports whether a value of type t can share memory with another.
func aliasing(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if aliasing(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return aliasing(u.Elem())
	case *types.TypeParam:
		return true
	}
	return false
}
