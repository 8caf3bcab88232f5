package poolvet

import (
	"go/token"
	"go/types"

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
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				switch x := in.(type) {
				case *ssa.Alloc:
					vs.addAlloc(x)
				case *ssa.Store:
					if fa, ok := x.Addr.(*ssa.FieldAddr); ok {
						if c, ok := x.Val.(*ssa.Const); ok && (c.IsNil() || isZeroConst(c)) {
							if f := fieldOf(fa); f != nil {
								vs.cleared[f] = true
							}
						}
					}
				}
			}
		}
	}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if v, ok := in.(ssa.Value); ok {
					vs.origin(v)
				}
			}
		}
	}
	// Merge each once-stored Alloc with the value stored in it.
	for loc, st := range vs.single {
		o, _ := vs.origin(st.Val)
		if !o.derived {
			vs.union(o.root, vs.find(loc))
		}
	}
	// A pointer loaded from a field of a value, in one function, is one
	// value until the field is stored to or the value is passed to a call
	// (see kills): x.buf after Put(x.buf) is the buffer given back.
	type fieldKey struct {
		fn   *ssa.Function
		base ssa.Value
		f    *types.Var
	}
	first := make(map[fieldKey]ssa.Value)
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				l, ok := in.(*ssa.UnOp)
				if !ok || l.Op != token.MUL {
					continue
				}
				fa, ok := l.X.(*ssa.FieldAddr)
				if !ok || owning(l.Type()) || !aliasing(l.Type()) {
					continue
				}
				if o := vs.same(l); o.root != ssa.Value(l) {
					continue
				}
				base, derived := vs.of(fa.X)
				if derived {
					continue
				}
				f := fieldOf(fa)
				if f == nil {
					continue
				}
				k := fieldKey{fn, base, f}
				if f, ok := first[k]; ok {
					vs.union(l, f)
				} else {
					first[k] = l
				}
			}
		}
	}
	for k, l := range first {
		vs.fields[vs.find(l)] = fieldLoc{k.base, k.f}
	}
	for r := range vs.memoRoots() {
		rep := vs.find(r)
		vs.members[rep] = append(vs.members[rep], r)
	}
	return vs
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
	var stores []*ssa.Store
	var locs []ssa.Value
	var walk func(loc ssa.Value) bool
	walk = func(loc ssa.Value) bool {
		locs = append(locs, loc)
		for _, r := range *loc.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr != loc || r.Val == loc {
					return false
				}
				stores = append(stores, r)
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			case *ssa.MakeClosure:
				fn := r.Fn.(*ssa.Function)
				for i, b := range r.Bindings {
					if b == loc && !walk(fn.FreeVars[i]) {
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	if !walk(a) || len(stores) != 1 || isResultSlot(a) {
		return
	}
	for _, l := range locs {
		vs.single[l] = stores[0]
		if l != ssa.Value(a) {
			vs.union(l, a)
		}
	}
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

func (vs *values) compute(v ssa.Value) origin {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return vs.same(x.X)
	case *ssa.ChangeType:
		return vs.same(x.X)
	case *ssa.ChangeInterface:
		return vs.same(x.X)
	case *ssa.TypeAssert:
		if !x.CommaOk {
			return vs.same(x.X)
		}
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok && x.Index == 0 {
			return vs.same(ta.X)
		}
	case *ssa.Convert:
		if aliasing(x.Type()) && aliasing(x.X.Type()) {
			return vs.same(x.X)
		}
	case *ssa.SliceToArrayPointer:
		return vs.shared(x.X)
	case *ssa.Slice:
		if _, ok := x.X.Type().Underlying().(*types.Basic); !ok {
			return vs.shared(x.X)
		}
	case *ssa.FieldAddr:
		return vs.shared(x.X)
	case *ssa.IndexAddr:
		return vs.shared(x.X)
	case *ssa.Field:
		if aliasing(x.Type()) {
			return vs.shared(x.X)
		}
	case *ssa.Index:
		if aliasing(x.Type()) {
			return vs.shared(x.X)
		}
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if _, ok := vs.single[x.X]; ok {
				return origin{x.X, false}
			}
			// A slice or map loaded from pooled memory shares its backing
			// store with the pooled value; a pointer loaded from it points
			// to an object of its own.
			// A pointer loaded from pooled memory may point to the
			// pooled object's own part (its encoder) or to something
			// shared (its server, its connection): it is not counted,
			// so that nothing false is reported. A slice or map loaded
			// from it is its memory.
			if owning(x.Type()) && !vs.detached(x.X) {
				return vs.shared(x.X)
			}
		}
	case *ssa.Phi:
		var first origin
		for i, e := range x.Edges {
			o := vs.same(e)
			if o.root == ssa.Value(x) {
				continue
			}
			if i > 0 && first.root != nil && o.root != first.root {
				return origin{v, false}
			}
			if first.root == nil {
				first = o
			}
			first.derived = first.derived || o.derived
		}
		if first.root != nil {
			return first
		}
	case *ssa.Call:
		c := x.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(c.Args) > 0 {
			return vs.same(c.Args[0])
		}
		if recv, name := methodCall(c); recv != nil && aliasMethods[name] && aliasing(x.Type()) {
			return vs.shared(recv)
		}
	}
	return origin{v, false}
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
