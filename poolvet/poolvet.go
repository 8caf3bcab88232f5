package poolvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// Analyzer reports misuse of pooled values: use after Put or Close, double
// Put, pooled memory that escapes, non-pointer values in a sync.Pool and
// buffers put into a sync.Pool without Reset.
var Analyzer = &analysis.Analyzer{
	Name:      "poolvet",
	Doc:       doc,
	URL:       "https://pkg.go.dev/github.com/reuse-go/reuse/poolvet",
	Requires:  []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes: []analysis.Fact{new(releasesFact), new(borrowsFact)},
	Run:       run,
}

const doc = `report misuse of pooled values

poolvet finds, on the paths of the control-flow graph:
  - a value, or memory derived from it, used after it was Put into a pool
    (sync.Pool and the pools of github.com/reuse-go/reuse), or a pooled
    handle used after Close, also by a deferred call, a goroutine or a
    closure, or through a reader, writer or struct that holds it;
  - a value Put twice, also through helper functions that Put their
    argument, and a field's value handed to another field that is Put;
  - pooled memory returned or stored while a deferred Put gives it back, or
    stored before it is Put;
  - non-pointer values Put into a sync.Pool;
  - buffers Put dirty into a pool that nobody resets;
  - values taken from a pool and not given back on some path to a return
    (-leak=false turns this off).`

// releasesFact records the parameters a function gives back on every path
// that returns: Put lists those it puts into a pool, Close the pooled
// handles it closes. Parameter 0 of a method is its receiver. Takes lists
// the results that hand out a value taken from a pool (a Get wrapper: each
// return gives a value of a Get, or new memory), when the package also
// gives back values of that type (a Put wrapper's fact).
type releasesFact struct {
	Put   []int
	Close []int
	Takes []int
	// NilOnErr says that the first of Takes is nil on every return whose
	// last result, an error, is not nil: nothing to give back there.
	NilOnErr bool
	Unref    []int // dropped by a counted Put, given back when a counter reaches zero
	// PutIf lists the parameters Put only on the paths that return When
	// as the bool result Result (see signal.go).
	PutIf  []int
	Result int
	When   bool
	// Through lists the parameters that the first of Takes may be
	// instead of a pooled value (a buffer passed in, used when it is
	// large enough): a call takes from the pool only where each of them
	// is nil.
	Through []int
}

// AFact marks releasesFact as a fact.
func (*releasesFact) AFact() {}

func (f *releasesFact) String() string {
	if len(f.Takes) > 0 || len(f.Unref) > 0 || len(f.PutIf) > 0 {
		s := fmt.Sprintf("releases(put=%v, close=%v", f.Put, f.Close)
		if len(f.Takes) > 0 {
			s += fmt.Sprintf(", takes=%v", f.Takes)
		}
		if f.NilOnErr {
			s += ", nil on error"
		}
		if len(f.Through) > 0 {
			s += fmt.Sprintf(", through=%v", f.Through)
		}
		if len(f.Unref) > 0 || len(f.PutIf) > 0 {
			s += fmt.Sprintf(", unref=%v", f.Unref)
		}
		if len(f.PutIf) > 0 {
			s += fmt.Sprintf(", putif=%v when result %d is %v", f.PutIf, f.Result, f.When)
		}
		return s + ")"
	}
	return fmt.Sprintf("releases(put=%v, close=%v)", f.Put, f.Close)
}

// A release is one operation that gives a value back.
type release struct {
	instr    ssa.CallInstruction
	root     ssa.Value // class representative of the released value
	arg      ssa.Value // the released argument as passed
	argIndex int       // index in args, receiver (or bindings) first
	kind     kind
	deferred bool
	rule     bool    // a method of the table, not a helper
	method   string  // table key, when rule
	helper   string  // name of the helper that releases, when not rule
	signal   *signal // the result that says whether it released, if any
}

type checker struct {
	pass     *analysis.Pass
	pkg      *ssa.Package
	fns      []*ssa.Function
	vs       *values
	facts    map[*ssa.Function]*releasesFact // facts of this package's functions; closures bind FreeVars after Params
	calls    map[token.Pos]*ast.CallExpr
	seen     map[string]bool
	usedAt   map[token.Pos]bool    // uses already reported after an earlier release
	ranges   []*ast.RangeStmt      // the range statements of the package, once needed
	resets   map[types.Object]bool // pools whose Gets are returned: reset, or not, out of sight
	gets     map[types.Object]bool // pools with a Get in this package
	dirtyGet map[types.Object]bool // pools with a Get whose value is used before a Reset
	hooks    map[types.Object]bool // reuse.Pools whose Reset hook is set (nil: one unknown)
	fix      *fixState             // what the suggested fixes found (fix.go)
	counters map[*types.Var]bool   // reference-count fields of the package, once needed
	borrow   *borrowState          // the parameters its functions only borrow (borrow.go)
	owned    *ownedState           // call sites and releases for the owned-parameter check (owned.go)
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	c := &checker{
		pass:   pass,
		pkg:    ssaRes.Pkg,
		fns:    withInitLiterals(ssaRes.Pkg, ssaRes.SrcFuncs),
		facts:  make(map[*ssa.Function]*releasesFact),
		calls:  make(map[token.Pos]*ast.CallExpr),
		seen:   make(map[string]bool),
		usedAt: make(map[token.Pos]bool),
	}
	c.vs = newValues(c.fns)
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ce, ok := n.(*ast.CallExpr); ok {
				c.calls[ce.Lparen] = ce
			}
			return true
		})
	}
	c.computeFacts()
	c.computeBorrows()
	c.scanResets()
	var puts []fieldPut
	for _, fn := range c.fns {
		puts = append(puts, c.checkFunc(fn)...)
	}
	c.checkHandoffs(puts)
	return nil, nil
}

// funcOf returns the package-level function or method a call reaches, and
// the arguments as the callee sees them (receiver or bindings first).
func callTarget(common *ssa.CallCommon) (*ssa.Function, []ssa.Value) {
	if common.IsInvoke() {
		return nil, nil
	}
	switch v := common.Value.(type) {
	case *ssa.Function:
		return v, common.Args
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		if fn == nil {
			return nil, nil
		}
		args := append(slices.Clip(common.Args), v.Bindings...)
		if fn.Synthetic != "" && strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
			// The receiver is the binding; it comes first.
			args = append(slices.Clone(v.Bindings), common.Args...)
		}
		return fn, args
	}
	return nil, nil
}

// releasesAt lists what the call instruction gives back.
func (c *checker) releasesAt(in ssa.CallInstruction) []release {
	common := in.Common()
	if common.IsInvoke() {
		return c.invokedRelease(in)
	}
	fn, args := callTarget(common)
	if fn == nil {
		return nil
	}
	_, deferred := in.(*ssa.Defer)
	l := &releaseList{c: c, in: in, args: args, deferred: deferred}
	if obj, ok := fn.Object().(*types.Func); ok {
		c.addFuncReleases(l, fn, obj)
	} else if f := c.facts[fn]; f != nil {
		// A function literal: its fact indexes params, then free
		// variables. args is common.Args followed by the bindings, as
		// the fact's indexes are.
		l.addFact(f, "the function literal")
	}
	return c.countedPuts(in, l.out)
}

// addFuncReleases adds to l the releases of a call of the declared
// function or method fn, of object obj: the one of its entry in the
// table of releases, or else those of its fact.
func (c *checker) addFuncReleases(l *releaseList, fn *ssa.Function, obj *types.Func) {
	key := methodKey(obj)
	if r, ok := releases[key]; ok {
		l.add(r.arg, r.kind, true, key, "")
		return
	}
	if f := c.factOf(fn); f != nil {
		l.addFact(f, fn.Name())
		l.addPutIf(f, fn.Name())
	}
}

// A releaseList collects the releases of one call instruction, in, of a
// function with arguments args.
type releaseList struct {
	c        *checker
	in       ssa.CallInstruction
	args     []ssa.Value
	deferred bool
	out      []release
}

// add appends the release of kind k of argument i, a method of the table
// (rule, with its key) or a helper, and reports whether there was one: an
// argument i that gives back a value of its own.
func (l *releaseList) add(i int, k kind, rule bool, key, helper string) bool {
	if i >= len(l.args) {
		return false
	}
	root, ok := l.c.releasedRoot(l.args[i])
	if !ok {
		return false
	}
	l.out = append(l.out, release{l.in, root, l.args[i], i, k, l.deferred, rule, key, helper, nil})
	return true
}

// addFact appends the releases of the fact f of the helper named helper:
// its Puts, Closes and counted Puts.
func (l *releaseList) addFact(f *releasesFact, helper string) {
	for _, i := range f.Put {
		l.add(i, put, false, "", helper)
	}
	for _, i := range f.Close {
		l.add(i, closeHandle, false, "", helper)
	}
	for _, i := range f.Unref {
		l.add(i, unref, false, "", helper)
	}
}

// addPutIf appends the Puts of the fact f of the helper named helper
// that the call's result signals.
func (l *releaseList) addPutIf(f *releasesFact, helper string) {
	for _, i := range f.PutIf {
		if l.add(i, put, false, "", helper) {
			l.out[len(l.out)-1].signal = signalAt(l.in, f)
		}
	}
}

// countedPuts turns the Puts of rels that a reference count decides into
// drops of a reference.
func (c *checker) countedPuts(in ssa.CallInstruction, rels []release) []release {
	for i, r := range rels {
		if r.kind == put && c.counted(in, r.root) {
			rels[i].kind = unref
		}
	}
	return rels
}

// releasedRoot returns the class of the value a release gives back when
// passed arg: arg's own, or s's for s[:0]. It reports false for memory of
// a value (a field, a subslice) and for a nil.
func (c *checker) releasedRoot(arg ssa.Value) (ssa.Value, bool) {
	inner := arg
	if mi, ok := inner.(*ssa.MakeInterface); ok {
		inner = mi.X
	}
	switch a := inner.(type) {
	case *ssa.Alloc:
		// sp.Put(&s), where the variable s holds a value stored once,
		// gives back that value's memory (syncthing's bufferPool.Put).
		if v := storedOnce(a); v != nil {
			arg = v
		}
	case *ssa.SliceToArrayPointer:
		// p.Put((*[N]byte)(buf[:N])) gives back buf's array
		// (nats-server's recycleMsgBlockBuf).
		if x, ok := emptied(a.X); ok {
			arg = x
		}
	}
	root, derived := c.vs.of(arg)
	if derived {
		// sp.Put(s[:0]) gives back s.
		x, ok := emptied(arg)
		if !ok {
			return nil, false
		}
		if root, derived = c.vs.of(x); derived {
			return nil, false
		}
	}
	return root, !c.isConstClass(root) // a nil: nothing was taken from a pool
}

// emptied returns s for s[:n] or s[0:n], a slice that starts where s
// does: putting it back puts back s's memory. So does putting back what
// append made of it (b = append(b[:0], p...)): the same array, or a new
// one that replaces it in the pool.
func emptied(v ssa.Value) (ssa.Value, bool) {
	for range 8 {
		call, ok := v.(*ssa.Call)
		if !ok {
			break
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
			return nil, false
		}
		v = call.Call.Args[0]
	}
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.Max != nil {
		return nil, false
	}
	if _, ok := sl.X.Type().Underlying().(*types.Slice); !ok {
		return nil, false
	}
	if sl.Low != nil {
		if k, ok := sl.Low.(*ssa.Const); !ok || k.Int64() != 0 {
			return nil, false
		}
	}
	return sl.X, true
}

// invokedRelease resolves a release method called through an interface
// (io.Closer's Close) when the interface was made from a value of a table
// type: var c io.Closer = zw; c.Close().
func (c *checker) invokedRelease(in ssa.CallInstruction) []release {
	common := in.Common()
	root, derived := c.vs.of(common.Value)
	if derived || c.isConstClass(root) {
		return nil
	}
	v := common.Value
	for range 8 {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			r, ok := c.ruleForType(x.X.Type(), common.Method.Name())
			if !ok || r.arg != 0 {
				return nil
			}
			_, deferred := in.(*ssa.Defer)
			return []release{{instr: in, root: root, arg: common.Value, kind: r.kind, deferred: deferred, rule: true, method: common.Method.Name()}}
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.UnOp:
			st, ok := c.vs.single[x.X]
			if !ok || x.Op != token.MUL {
				return nil
			}
			v = st.Val
		default:
			return nil
		}
	}
	return nil
}

// ruleForType returns the table rule for method name on type t.
func (c *checker) ruleForType(t types.Type, name string) (rule, bool) {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	f, ok := obj.(*types.Func)
	if !ok {
		return rule{}, false
	}
	r, ok := releases[methodKey(f)]
	return r, ok
}

// isConstClass reports whether the class holds a constant (a nil).
func (c *checker) isConstClass(root ssa.Value) bool {
	if _, ok := root.(*ssa.Const); ok {
		return true
	}
	for _, m := range c.vs.members[root] {
		if _, ok := m.(*ssa.Const); ok {
			return true
		}
	}
	return false
}

func (c *checker) factOf(fn *ssa.Function) *releasesFact {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if f, ok := c.facts[fn]; ok {
		return f
	}
	obj := fn.Object()
	if obj == nil {
		return nil
	}
	if obj.Pkg() == c.pass.Pkg {
		// A wrapper (a method value or expression) of a function of this
		// package: the fact is the declared function's.
		if tf, ok := obj.(*types.Func); ok {
			if decl := fn.Prog.FuncValue(tf.Origin()); decl != nil && decl != fn {
				return c.facts[decl]
			}
		}
		return nil
	}
	f := new(releasesFact)
	if c.pass.ImportObjectFact(obj, f) {
		return f
	}
	return nil
}

// checkFunc runs every check on one function, and returns its releases of
// values loaded from fields, for checkHandoffs.
func (c *checker) checkFunc(fn *ssa.Function) []fieldPut {
	var rels []release
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok {
				if _, isGo := in.(*ssa.Go); isGo {
					continue
				}
				rels = append(rels, c.releasesAt(ci)...)
				c.checkNonPointer(ci)
			}
		}
	}
	for _, r := range rels {
		if r.rule && (r.method == "sync.Pool.Put" || r.method == module+".Pool.Put") {
			c.checkResetPut(fn, r)
		}
		if r.kind == unref {
			continue // other owners may still hold it
		}
		if r.signal != nil {
			if !r.deferred {
				c.checkUses(fn, r, c.signalRegion(fn, r), false)
			}
			continue
		}
		if r.deferred {
			c.checkDeferred(fn, r, rels)
		} else {
			c.checkAfter(fn, r)
		}
	}
	c.checkEscapeBeforePut(fn, rels)
	if leakCheck {
		c.checkLeaks(fn, rels)
		c.checkOwnedLeaks(fn, rels)
	}
	return c.fieldPuts(rels)
}

// checkAfter reports uses of r's value on the paths after r.
func (c *checker) checkAfter(fn *ssa.Function, r release) {
	c.checkUses(fn, r, after(r.instr, c.releaseKills(fn, r)), true)
}

// releaseKills returns the kills of r's value after r: those of its class,
// and, for a value loaded from a field that was written between the load
// and r, the loads of the class themselves. The field holds another value
// by then, so a load that runs again after r (the next iteration of
// for p.head != nil { head := p.head; p.head = head.next; put(head) })
// reads that one.
func (c *checker) releaseKills(fn *ssa.Function, r release) map[*ssa.BasicBlock][]int {
	kills := c.kills(fn, r.root)
	loc, ok := c.vs.fields[r.root]
	if !ok {
		return kills
	}
	var loads []ssa.Instruction
	for _, m := range c.vs.members[r.root] {
		if l, ok := m.(*ssa.UnOp); ok && l.Parent() == fn {
			loads = append(loads, l)
		}
	}
	if len(loads) == 0 {
		return kills
	}
	def := c.vs.reachingStores(fieldKey{fn, loc.base, loc.f})
	if def(loads[0]) == def(r.instr) {
		return kills // the field still holds it
	}
	for _, l := range loads {
		addKill(kills, fn, l)
	}
	return kills
}

// checkUses reports uses of r's value in reg, what runs after r, and with
// late, the deferred calls and goroutines that use it.
func (c *checker) checkUses(fn *ssa.Function, r release, reg *region, late bool) {
	tainted := c.taint(reg, r.root)
	parted := c.parted(r)
	cells := c.holders(fn, tainted, parted)
	reported := map[int]bool{}
	var lates []ssa.CallInstruction
	if late {
		lates = c.lateUses(fn, r, tainted)
	}
	for _, late := range lates {
		pos := late.Pos()
		if c.usedAt[pos] {
			continue
		}
		c.usedAt[pos] = true
		what := "the deferred call runs when the function returns"
		if _, ok := late.(*ssa.Go); ok {
			what = "the goroutine started here may run after it"
		}
		c.report(pos, fmt.Sprintf("%s is used after %s at %s: %s", c.name(r), verbOf(r.kind), c.where(r.instr.Pos()), what), r.instr.Pos())
	}
	for _, in := range reg.instrs {
		if !c.usesTainted(in, tainted, parted) && !usesCell(in, cells) && !c.closureUses(in, tainted) {
			continue
		}
		pos := posOf(in)
		if !pos.IsValid() {
			continue
		}
		if in.Block().Comment == "rangeindex.body" && !in.Pos().IsValid() {
			pos = c.rangeAt(pos) // an element read by the range clause
		}
		line := c.pass.Fset.Position(pos).Line
		if reported[line] || c.usedAt[pos] {
			continue
		}
		reported[line] = true
		c.usedAt[pos] = true
		c.reportUse(r, in, pos, tainted)
	}
}

// taint returns the classes that hold r's value in reg: its root, and the
// phis that merge it on an edge from inside reg.
func (c *checker) taint(reg *region, root ssa.Value) map[ssa.Value]bool {
	tainted := map[ssa.Value]bool{root: true}
	for changed := true; changed; {
		changed = false
		for _, in := range reg.instrs {
			phi, ok := in.(*ssa.Phi)
			if !ok {
				continue
			}
			if pr, _ := c.vs.of(phi); !tainted[pr] && c.phiTainted(phi, reg, tainted) {
				tainted[pr] = true
				changed = true
			}
		}
	}
	return tainted
}

// phiTainted reports whether phi takes a tainted value on an edge from
// inside reg.
func (c *checker) phiTainted(phi *ssa.Phi, reg *region, tainted map[ssa.Value]bool) bool {
	for i, e := range phi.Edges {
		if er, _ := c.vs.of(e); tainted[er] && reg.endOf[phi.Block().Preds[i]] {
			return true
		}
	}
	return false
}

// usesTainted reports whether in reads tainted memory: it has a tainted
// operand, and is neither a new name for that memory nor an operation
// that reads none of it. Operands parted from the value (see parted) do not
// count.
func (c *checker) usesTainted(in ssa.Instruction, tainted, parted map[ssa.Value]bool) bool {
	if readsNoMemory(in) {
		return false
	}
	if v, ok := in.(ssa.Value); ok {
		if vr, _ := c.vs.of(v); tainted[vr] && !c.loadsPooled(in, tainted) {
			return false // the same memory under another name: its uses count
		}
	}
	for _, op := range in.Operands(nil) {
		if *op == nil {
			continue
		}
		if or, _ := c.vs.of(*op); tainted[or] && !c.fromParted(*op, parted) {
			return true
		}
	}
	return false
}

// loadsPooled reports whether in loads from pooled memory (a slice kept in
// a pooled *[]byte), not from a local variable that holds the pooled value.
func (c *checker) loadsPooled(in ssa.Instruction, tainted map[ssa.Value]bool) bool {
	l, ok := in.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return false
	}
	if _, local := c.vs.single[l.X]; local {
		return false
	}
	r, _ := c.vs.of(l.X)
	return tainted[r]
}

// readsNoMemory reports whether in reads nothing of the memory its
// operands point to.
func readsNoMemory(in ssa.Instruction) bool {
	switch x := in.(type) {
	case *ssa.Phi, *ssa.DebugRef:
		return true
	case *ssa.BinOp:
		return x.Op == token.EQL || x.Op == token.NEQ // comparing a pointer reads no pooled memory
	case *ssa.Call:
		b, ok := x.Call.Value.(*ssa.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "cap") // a slice's length and capacity are the caller's copy
	}
	return false
}

// reportUse reports in, which uses r's value after r: a second Put, or a
// use after Put or Close.
func (c *checker) reportUse(r release, in ssa.Instruction, pos token.Pos, tainted map[ssa.Value]bool) {
	name := c.name(r)
	if ci, ok := in.(ssa.CallInstruction); ok && c.releasedAgain(r, ci, pos, name, tainted) {
		return
	}
	c.report(pos, fmt.Sprintf("%s is used after %s at %s", name, verbOf(r.kind), c.where(r.instr.Pos())), r.instr.Pos())
}

// releasedAgain reports whether ci releases r's value a second time, and
// reports a double Put.
func (c *checker) releasedAgain(r release, ci ssa.CallInstruction, pos token.Pos, name string, tainted map[ssa.Value]bool) bool {
	for _, r2 := range c.releasesAt(ci) {
		if !tainted[r2.root] {
			continue
		}
		if r2.kind == closeHandle && r.kind == closeHandle {
			return true // double Close returns an error, by contract
		}
		if r2.kind == put && r.kind == put {
			c.report(pos, fmt.Sprintf("%s is Put twice: it was already Put at %s", name, c.where(r.instr.Pos())), r.instr.Pos())
			return true
		}
	}
	return false
}

// verbOf names the operation of a release kind in a message.
func verbOf(k kind) string {
	if k == closeHandle {
		return "Close"
	}
	return "Put"
}

// checkDeferred reports, for a deferred release, a second release on the
// way to the return and the value escaping the function.
func (c *checker) checkDeferred(fn *ssa.Function, d release, rels []release) {
	reg := after(d.instr, c.kills(fn, d.root))
	name := c.name(d)
	for _, r := range rels {
		if r.deferred || r.root != d.root || r.kind != put || d.kind != put || r.signal != nil || !reg.in[r.instr] {
			continue
		}
		c.report(r.instr.Pos(), fmt.Sprintf("%s is Put twice: here and by the deferred Put at %s", c.name(r), c.where(d.instr.Pos())), d.instr.Pos())
	}
	classes := map[ssa.Value]bool{d.root: true}
	cells := c.holders(fn, classes, nil)
	for _, in := range reg.instrs {
		vals, what := c.leaving(in, d.root)
		c.reportLeaving(in, vals, what, d, name, classes, cells)
	}
}

// loadsCell reports whether v is loaded from a cell: a struct that holds
// pooled memory, copied out whole.
func loadsCell(v ssa.Value, cells map[ssa.Value]bool) bool {
	l, ok := v.(*ssa.UnOp)
	return ok && l.Op == token.MUL && cells[l.X]
}

// leaving returns the values in hands to the caller or to memory that
// outlives the function, and what it does with them: returned, stored or
// sent.
func (c *checker) leaving(in ssa.Instruction, root ssa.Value) ([]ssa.Value, string) {
	switch x := in.(type) {
	case *ssa.Return:
		return x.Results, "returned"
	case *ssa.Store:
		if c.isResultSlot(x.Addr) {
			return []ssa.Value{x.Val}, "returned"
		}
		if c.escapes(x.Addr, root) {
			if e := appendedElem(x.Val); e != nil {
				return []ssa.Value{x.Val, e}, "stored"
			}
			return []ssa.Value{x.Val}, "stored"
		}
	case *ssa.Send:
		return []ssa.Value{x.X}, "sent"
	case *ssa.MapUpdate:
		if c.escapes(x.Map, root) {
			return []ssa.Value{x.Value}, "stored"
		}
	}
	return nil, ""
}

// reportLeaving reports the first of vals that is d's value, which in
// hands on while d gives it back at return.
func (c *checker) reportLeaving(in ssa.Instruction, vals []ssa.Value, what string, d release, name string, classes, cells map[ssa.Value]bool) {
	for _, v := range vals {
		vr, _ := c.vs.of(v)
		holds := vr != d.root && (classes[vr] || cells[v] || loadsCell(v, cells))
		if vr != d.root && !holds {
			continue
		}
		if holds {
			name = "memory of " + name
		}
		pos := posOf(in)
		if !pos.IsValid() {
			pos = posOf(v.(ssa.Instruction))
		}
		var fixes []analysis.SuggestedFix
		if _, derived := c.vs.of(v); derived && d.kind == put && what == "returned" {
			fixes = c.copyFix(pos, v.Pos()) // memory of the value, returned: return a copy
		}
		c.reportFix(pos, fmt.Sprintf("%s is %s, but the deferred %s at %s gives it back when the function returns", c.describe(v, name), what, verbOf(d.kind), c.where(d.instr.Pos())), d.instr.Pos(), fixes)
		return
	}
}

// checkEscapeBeforePut reports memory of a pooled value stored where it
// outlives the function, or sent, on a path that then Puts the value.
func (c *checker) checkEscapeBeforePut(fn *ssa.Function, rels []release) {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			v, identityToo := c.escaping(in)
			if v == nil {
				continue
			}
			root, derived := c.vs.of(v)
			if !derived && !identityToo {
				continue
			}
			c.checkPutAfter(fn, in, v, root, rels)
		}
	}
}

// escaping returns the value in stores where it outlives the function, or
// sends, and whether the value itself counts, not only memory of it (a
// send hands over both).
func (c *checker) escaping(in ssa.Instruction) (v ssa.Value, identityToo bool) {
	switch x := in.(type) {
	case *ssa.Store:
		if r, _ := c.vs.of(x.Val); c.escapes(x.Addr, r) {
			return x.Val, false
		}
		if e := appendedElem(x.Val); e != nil {
			if r, _ := c.vs.of(e); c.escapes(x.Addr, r) {
				return e, false // c.parts = append(c.parts, b.Bytes())
			}
		}
	case *ssa.Send:
		return x.X, true
	case *ssa.MapUpdate:
		if r, _ := c.vs.of(x.Value); c.escapes(x.Map, r) {
			return x.Value, false
		}
	}
	return nil, false
}

// appendedElem returns the first element of aliasing type that
// append(s, e...) adds from a literal list (its variadic arguments), or nil:
// appending b.Bytes() to a slice stores it there.
func appendedElem(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 2 {
		return nil
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
		return nil
	}
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok {
		return nil
	}
	al, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, r := range *al.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ia && aliasing(st.Val.Type()) {
				return st.Val
			}
		}
	}
	return nil
}

// checkPutAfter reports in, where v of class root escapes, if a Put of
// root follows it on some path.
func (c *checker) checkPutAfter(fn *ssa.Function, in ssa.Instruction, v, root ssa.Value, rels []release) {
	var reg *region
	for _, r := range rels {
		if r.deferred || r.kind != put || r.signal != nil || r.root != root {
			continue
		}
		if reg == nil {
			reg = after(in, c.kills(fn, root))
		}
		if reg.in[r.instr] {
			pos := posOf(in)
			c.report(pos, fmt.Sprintf("%s escapes, but %s is Put at %s: whoever keeps it reads memory the pool hands out again", c.describe(v, c.name(r)), c.name(r), c.where(r.instr.Pos())), r.instr.Pos())
			return
		}
	}
}

// escapes reports whether storing to addr puts a value where it outlives
// the function: a global, or memory reached from a parameter, a free
// variable or a call, but not the pooled value root itself.
func (c *checker) escapes(addr ssa.Value, root ssa.Value) bool {
	ar, _ := c.vs.of(addr)
	if ar == root {
		return false
	}
	switch ar.(type) {
	case *ssa.Global, *ssa.Parameter:
		return true
	case *ssa.FreeVar:
		_, single := c.vs.single[ar]
		return !single
	}
	return false
}

// isResultSlot reports whether addr is a local that holds a result for a
// return after the deferred calls ran.
func (c *checker) isResultSlot(addr ssa.Value) bool {
	return isResultSlot(addr)
}

func isResultSlot(addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *a.Referrers() {
		if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL {
			for _, rr := range *l.Referrers() {
				if _, ok := rr.(*ssa.Return); ok {
					return true
				}
			}
		}
	}
	return false
}

// kills returns, per block of fn, the index where root's value is defined
// afresh: a path through it no longer carries the released value.
func (c *checker) kills(fn *ssa.Function, root ssa.Value) map[*ssa.BasicBlock][]int {
	if loc, ok := c.vs.fields[root]; ok {
		return c.fieldKills(fn, loc)
	}
	k := make(map[*ssa.BasicBlock][]int)
	members := c.vs.members[root]
	if len(members) == 0 {
		members = []ssa.Value{root}
	}
	for _, m := range members {
		if st, ok := c.vs.single[m]; ok {
			addKill(k, fn, st)
			continue
		}
		if in, ok := m.(ssa.Instruction); ok {
			addKill(k, fn, in)
		}
	}
	return k
}

// addKill records in as a kill, if it is an instruction of fn.
func addKill(k map[*ssa.BasicBlock][]int, fn *ssa.Function, in ssa.Instruction) {
	if in == nil || in.Block() == nil || in.Parent() != fn {
		return
	}
	b := in.Block()
	k[b] = append(k[b], slices.Index(b.Instrs, in))
}

// fieldKills returns the kills of the loads of field loc: they are the one
// value until a store to the field, a call that may store to it, or a new
// holder.
func (c *checker) fieldKills(fn *ssa.Function, loc fieldLoc) map[*ssa.BasicBlock][]int {
	k := make(map[*ssa.BasicBlock][]int)
	for b, ks := range c.kills(fn, loc.base) {
		k[b] = append(k[b], ks...)
	}
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			switch x := in.(type) {
			case *ssa.Store:
				if fa, ok := x.Addr.(*ssa.FieldAddr); ok && fieldOf(fa) == loc.f {
					k[b] = append(k[b], i)
				}
			case ssa.CallInstruction:
				if c.receives(x, loc.base) {
					k[b] = append(k[b], i+1)
				}
			}
		}
	}
	return k
}

// receives reports whether a call is passed the value of class base, or
// memory of it, so that it may store to base's fields.
func (c *checker) receives(call ssa.CallInstruction, base ssa.Value) bool {
	common := call.Common()
	vals := append([]ssa.Value{common.Value}, common.Args...)
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		vals = append(vals, mc.Bindings...)
	}
	for _, v := range vals {
		if r, _ := c.vs.of(v); r == base {
			return true
		}
	}
	return false
}

// posOf returns a position for an instruction, borrowing one from the
// values it uses or the instructions that follow when it has none.
func posOf(in ssa.Instruction) token.Pos {
	if p := in.Pos(); p.IsValid() {
		return p
	}
	if v, ok := in.(ssa.Value); ok && v.Referrers() != nil {
		for _, r := range *v.Referrers() {
			if p := r.Pos(); p.IsValid() {
				return p
			}
		}
	}
	if b := in.Block(); b != nil {
		i := slices.Index(b.Instrs, in)
		for _, n := range b.Instrs[i+1:] {
			if p := n.Pos(); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}

func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func (c *checker) report(pos token.Pos, msg string, related token.Pos) {
	c.reportFix(pos, msg, related, nil)
}

// name returns the source text of the released argument.
func (c *checker) name(r release) string {
	ce := c.calls[r.instr.Common().Pos()]
	if ce == nil || r.helper == "the function literal" {
		return c.className(r.root)
	}
	common := r.instr.Common()
	shift := c.argShift(common, ce)
	if _, ok := common.Value.(*ssa.MakeClosure); ok && shift == 0 && r.argIndex >= len(ce.Args) {
		// A function literal: the fact indexes its parameters, then its
		// free variables, which the source does not name at the call.
		return c.className(r.root)
	}
	if e := argExpr(ce, r.argIndex, shift); e != nil {
		return types.ExprString(e)
	}
	if n := c.className(r.root); n != "the value" {
		return n
	}
	return "the " + types.TypeString(r.arg.Type(), types.RelativeTo(c.pass.Pkg))
}

// argShift returns how many of the callee's leading arguments the call's
// source does not write in its argument list: a bound method value's
// receiver, or a method call's receiver, the selector's operand.
func (c *checker) argShift(common *ssa.CallCommon, ce *ast.CallExpr) int {
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		if fn, _ := mc.Fn.(*ssa.Function); fn != nil && strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
			return len(mc.Bindings)
		}
		return 0
	}
	if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return 1
		}
	}
	return 0
}

// argExpr returns the source expression of the callee's argument
// argIndex, or nil when the call does not write it.
func argExpr(ce *ast.CallExpr, argIndex, shift int) ast.Expr {
	if i := argIndex - shift; i >= 0 && i < len(ce.Args) {
		return ce.Args[i]
	}
	if argIndex == 0 && shift == 1 {
		if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
	}
	return nil
}

// className names a class of values by a variable in it.
func (c *checker) className(root ssa.Value) string {
	members := c.vs.members[root]
	if len(members) == 0 {
		members = []ssa.Value{root}
	}
	for _, m := range members {
		switch m := m.(type) {
		case *ssa.Alloc:
			if m.Comment != "" {
				return m.Comment
			}
		case *ssa.Parameter, *ssa.FreeVar:
			return m.Name()
		}
	}
	return "the value"
}

// describe names v for a message: the pooled value itself, or memory of it.
func (c *checker) describe(v ssa.Value, name string) string {
	if _, derived := c.vs.of(v); derived {
		return "memory of " + name
	}
	return name
}

// storedOnce returns the value stored in the variable a when a is stored
// exactly once, or nil.
func storedOnce(a *ssa.Alloc) ssa.Value {
	var v ssa.Value
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			if v != nil {
				return nil
			}
			v = st.Val
		}
	}
	return v
}

// withInitLiterals returns fns and the function literals of the package's
// variable initializers (var marshal = func(...) {...}): buildssa lists
// the literals of declared functions only, and these are in the
// synthesized init.
func withInitLiterals(pkg *ssa.Package, fns []*ssa.Function) []*ssa.Function {
	init := pkg.Func("init")
	if init == nil {
		return fns
	}
	out := slices.Clip(fns)
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		for _, a := range f.AnonFuncs {
			if a.Synthetic == "" && !slices.Contains(fns, a) {
				out = append(out, a)
			}
			add(a)
		}
	}
	add(init)
	return out
}
