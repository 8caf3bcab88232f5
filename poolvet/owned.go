package poolvet

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Owned parameters. The leak check of leak.go starts at a Get; a value
// handed to a function of the program leaves its caller's sight there.
// The function it is handed to owns it when:
//
//   - it gives it back (Put, Close, or a counted drop of a reference) on
//     some path: a parameter, or the value in a field of a parameter (a
//     packet's reference-counted buffer, p.buffer); or
//   - its callers in the package take it from a pool, hand it over whole
//     and never give it back themselves (the read loop that hands each
//     buffer to handlePacket);
//
// and no caller in the package gives it back after the call (a function
// that gives back on some paths and leaves the rest to its caller, as its
// result says, owns it only in part). A path from the entry to a return
// that neither gives it back nor hands it on (stores it, passes it whole
// to a function that may keep it or give it back, starts a function
// literal that does) loses it: the next Get allocates anew.

// handedWhy starts the reason of a report where the callers hand over.
const handedWhy = "its callers hand it to "

// ownedSubject is what an owned-parameter check follows: a parameter of
// class base, whole (f nil), or the value in its field f.
type ownedSubject struct {
	param *ssa.Parameter
	base  ssa.Value
	f     *types.Var
}

// maxDisposeDepth bounds how deep disposes follows calls and literals;
// past it a use counts as handing the value on.
const maxDisposeDepth = 3

// checkOwnedLeaks reports the returns of fn where a parameter it owns, or
// the value in a field of one, is lost.
func (c *checker) checkOwnedLeaks(fn *ssa.Function, rels []release) {
	if fn.Parent() != nil || len(fn.Blocks) == 0 {
		return
	}
	for i, p := range fn.Params {
		base, derived := c.vs.of(p)
		if derived || c.isConstClass(base) {
			continue
		}
		s := ownedSubject{p, base, nil}
		if why, ok := c.owns(fn, i, s, rels); ok {
			c.reportOwned(fn, i, s, why, rels)
		}
		var fields []*types.Var
		for _, r := range rels {
			if loc, ok := c.vs.fields[r.root]; ok && loc.base == base && !slices.Contains(fields, loc.f) {
				fields = append(fields, loc.f)
			}
		}
		if i == 0 && fn.Signature.Recv() != nil {
			continue // a receiver's fields outlive the call
		}
		for _, f := range fields {
			s := ownedSubject{p, base, f}
			if why, ok := c.owns(fn, i, s, rels); ok {
				c.reportOwned(fn, i, s, why, rels)
			}
		}
	}
}

// owns reports whether fn owns the subject s, parameter i or a field of
// it, and why, for the message.
func (c *checker) owns(fn *ssa.Function, i int, s ownedSubject, rels []release) (string, bool) {
	why := ""
	for _, r := range rels {
		if r.signal == nil && c.isSubject(r.root, s) {
			why = fmt.Sprintf("%s gives it back on other paths", fn.Name())
			break
		}
	}
	if why == "" && s.f == nil && c.handedOver(fn, i) {
		why = fmt.Sprintf("%s%s, which does not give it back or hand it on here", handedWhy, fn.Name())
	}
	if why == "" || !c.consumes(fn, s) || c.callerKeeps(fn, i, s.f) {
		return "", false
	}
	return why, true
}

// consumes reports whether fn hands on the subject s, on some path, other
// than by giving it back: passes it (or, for a field, the value holding
// it) whole to something that disposes of it, stores it, sends it. A
// function that only gives it back on some paths (as a flag, or the state
// of another value, decides) leaves it to its caller, or to whatever
// keeps it, on the others. For a field, the holder itself must be
// handed on: one that fn never hands on still holds the value in its
// field where fn returns (and so does a method's receiver, which is not
// followed).
func (c *checker) consumes(fn *ssa.Function, s ownedSubject) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if ci, ok := in.(ssa.CallInstruction); ok && c.releasesSubject(ci, s) {
				continue
			}
			if c.handsOn(in, s.base, nil, 0) {
				return true
			}
		}
	}
	return false
}

// releasesSubject reports whether the call ci gives back the subject s.
func (c *checker) releasesSubject(ci ssa.CallInstruction, s ownedSubject) bool {
	for _, r := range c.releasesAt(ci) {
		if c.isSubject(r.root, s) {
			return true
		}
	}
	return false
}

// isSubject reports whether class root is the subject s itself: the
// parameter's class, or that of a load of its field.
func (c *checker) isSubject(root ssa.Value, s ownedSubject) bool {
	if s.f == nil {
		return root == s.base
	}
	loc, ok := c.vs.fields[root]
	return ok && loc.base == s.base && loc.f == s.f
}

// ownedState caches, for the owned-parameter check, the static call
// sites of each function of the package and the releases of each.
type ownedState struct {
	sites map[*ssa.Function][]callSite
	rels  map[*ssa.Function][]release
}

// A callSite is a static call: the function it is in, and its arguments
// as the callee sees them.
type callSite struct {
	caller *ssa.Function
	args   []ssa.Value
	instr  ssa.CallInstruction
}

func (c *checker) ownedCache() *ownedState {
	if c.owned != nil {
		return c.owned
	}
	c.owned = &ownedState{sites: make(map[*ssa.Function][]callSite), rels: make(map[*ssa.Function][]release)}
	for _, caller := range c.fns {
		for _, b := range caller.Blocks {
			for _, in := range b.Instrs {
				if ci, ok := in.(ssa.CallInstruction); ok {
					if callee, args := callTarget(ci.Common()); callee != nil {
						c.owned.sites[callee] = append(c.owned.sites[callee], callSite{caller, args, ci})
					}
				}
			}
		}
	}
	return c.owned
}

// releasesOf returns the releases of fn, once.
func (c *checker) releasesOf(fn *ssa.Function) []release {
	st := c.ownedCache()
	rels, ok := st.rels[fn]
	if !ok {
		rels = c.releasesIn(fn)
		st.rels[fn] = rels
	}
	return rels
}

// callSites calls f with each static call of fn in the package, with the
// function it is in and the arguments as fn sees them.
func (c *checker) callSites(fn *ssa.Function, f func(caller *ssa.Function, args []ssa.Value)) {
	for _, s := range c.ownedCache().sites[fn] {
		f(s.caller, s.args)
	}
}

// callerKeeps reports whether a caller of fn in the package gives back
// what it passes as parameter i (or that value's field f) itself.
func (c *checker) callerKeeps(fn *ssa.Function, i int, f *types.Var) bool {
	keeps := false
	c.callSites(fn, func(caller *ssa.Function, args []ssa.Value) {
		if i >= len(args) || keeps {
			return
		}
		base, _ := c.vs.of(args[i])
		s := ownedSubject{base: base, f: f}
		for _, r := range c.releasesOf(caller) {
			if c.isSubject(r.root, s) || r.root == base {
				keeps = true
				return
			}
		}
	})
	return keeps
}

// handedOver reports whether fn's callers in the package hand it, as
// parameter i, a value they took from a pool, and hand it nowhere else:
// they neither give it back nor store, return or pass it on whole. A
// caller that also keeps the value (stores it in the packet it returns)
// only lends it to fn.
func (c *checker) handedOver(fn *ssa.Function, i int) bool {
	found, lent := false, false
	for _, site := range c.ownedCache().sites[fn] {
		if i >= len(site.args) {
			continue
		}
		root, derived := c.vs.of(site.args[i])
		if derived || !c.takenClass(root) {
			continue
		}
		if releasedIn(c.releasesOf(site.caller), root) || c.handedElsewhere(site, root) {
			lent = true
		} else {
			found = true
		}
	}
	return found && !lent
}

// takenClass reports whether the class root holds a value a call takes
// from a pool.
func (c *checker) takenClass(root ssa.Value) bool {
	for _, m := range c.vs.members[root] {
		if call, ok := m.(*ssa.Call); ok {
			if v, _, _ := c.taken(call); v != nil {
				if r, _ := c.vs.of(v); r == root {
					return true
				}
			}
		}
	}
	return false
}

// handedElsewhere reports whether the caller of site hands the value of
// class root on whole anywhere but in the calls to the callee of site:
// stores, returns, sends or captures it, or passes it as an argument
// (other than a method's receiver) to another call.
func (c *checker) handedElsewhere(site callSite, root ssa.Value) bool {
	for _, b := range site.caller.Blocks {
		for _, in := range b.Instrs {
			if c.handsOffWhole(in, root, site) {
				return true
			}
		}
	}
	return false
}

// handsOffWhole is handedElsewhere for one instruction.
func (c *checker) handsOffWhole(in ssa.Instruction, root ssa.Value, site callSite) bool {
	whole := func(v ssa.Value) bool {
		r, derived := c.vs.of(v)
		return r == root && !derived
	}
	switch x := in.(type) {
	case *ssa.Store:
		return whole(x.Val) && !whole(x.Addr)
	case *ssa.Return, *ssa.Send, *ssa.MakeClosure, *ssa.MapUpdate:
		return c.usesClass(in, root)
	case ssa.CallInstruction:
		common := x.Common()
		callee, args := callTarget(common)
		if callee == nil {
			args = common.Args
		}
		if len(c.releasesAt(x)) > 0 || callee != nil && slices.Equal(args, site.args) {
			return false
		}
		if _, ok := common.Value.(*ssa.Builtin); ok {
			return false
		}
		if recv, _ := methodCall(common); recv != nil && !common.IsInvoke() {
			args = args[1:]
		}
		return slices.ContainsFunc(args, whole)
	}
	return false
}

// reportOwned reports each return of fn that a path from the entry
// reaches without giving back or handing on the subject s.
func (c *checker) reportOwned(fn *ssa.Function, i int, s ownedSubject, why string, rels []release) {
	kills := make(map[*ssa.BasicBlock][]int)
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			if c.disposalAt(in, s.base, s.f, 0) {
				kills[b] = append(kills[b], i)
			}
		}
	}
	c.addOwnedBranches(fn, s, kills)
	reg := reachFrom(fn.Blocks[0], 0, kills)
	name := s.param.Name()
	if s.f != nil {
		name += "." + s.f.Name()
	}
	for _, x := range reg.instrs {
		ret, ok := x.(*ssa.Return)
		if !ok {
			continue
		}
		at := returnPos(fn, ret)
		if s.f == nil && strings.HasPrefix(why, handedWhy) && returnsError(ret) {
			c.reportFailedCalls(fn, i, at)
			continue
		}
		c.report(at, fmt.Sprintf("%s is not given back on the path to this return: %s", name, why), 0)
	}
}

// returnsError reports whether ret returns an error result that is not
// a constant nil.
func returnsError(ret *ssa.Return) bool {
	n := len(ret.Results)
	if n == 0 || !isErrorType(ret.Results[n-1].Type()) {
		return false
	}
	return !isNilConst(ret.Results[n-1])
}

// reportFailedCalls reports the calls of fn that hand it, as parameter i,
// the value it drops where it returns an error at ret: the caller sees
// the error, and gives the value back there (nats-server's
// processNextMsgRequest, where waitQueue.add fails when the queue is
// full).
func (c *checker) reportFailedCalls(fn *ssa.Function, i int, ret token.Pos) {
	for _, site := range c.ownedCache().sites[fn] {
		if i >= len(site.args) {
			continue
		}
		if root, derived := c.vs.of(site.args[i]); derived || !c.takenClass(root) {
			continue
		}
		c.report(site.instr.Pos(), fmt.Sprintf("%s is not given back when %s fails: it returns an error at %s without giving it back or handing it on", c.argName(site, i), fn.Name(), c.where(ret)), 0)
	}
}

// argName returns the source text of argument i (receiver first) of the
// call at site.
func (c *checker) argName(site callSite, i int) string {
	common := site.instr.Common()
	if ce := c.calls[common.Pos()]; ce != nil {
		if e := argExpr(ce, i, c.argShift(common, ce)); e != nil {
			return types.ExprString(e)
		}
	}
	r, _ := c.vs.of(site.args[i])
	return c.className(r)
}

// addOwnedBranches adds to kills the branches on the subject alone (a nil
// check, a size limit: given back or dropped either way) and the branches
// where a field's value is nil.
func (c *checker) addOwnedBranches(fn *ssa.Function, s ownedSubject, kills map[*ssa.BasicBlock][]int) {
	var reps []ssa.Value
	if s.f == nil {
		reps = append(reps, s.base)
		killNilBranch(kills, s.param)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if l, ok := in.(*ssa.UnOp); ok && s.f != nil {
				if r, _ := c.vs.of(l); c.isSubject(r, s) {
					killNilBranch(kills, l)
					if !slices.Contains(reps, r) {
						reps = append(reps, r)
					}
				}
			}
		}
	}
	for _, rep := range reps {
		gen := make(map[*ssa.BasicBlock]bool)
		c.addOwnerBranches(fn, rep, unref, gen) // a branch on a count: others own it then
		for b := range gen {
			kills[b] = append(kills[b], len(b.Instrs)-1)
		}
	}
}

// disposes reports whether fn, on some path, gives back or hands on the
// value of class base (f nil), or the value in its field f.
func (c *checker) disposes(fn *ssa.Function, base ssa.Value, f *types.Var, depth int) bool {
	if depth > maxDisposeDepth {
		return true
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c.disposalAt(in, base, f, depth) {
				return true
			}
		}
	}
	return false
}

// disposalAt reports whether in gives back or hands on the value of class
// base (f nil) or the value in its field f: a release of it, a use that
// lets it outlive the function, or a call or function literal handed the
// value whole that disposes of it.
func (c *checker) disposalAt(in ssa.Instruction, base ssa.Value, f *types.Var, depth int) bool {
	s := ownedSubject{base: base, f: f}
	if ci, ok := in.(ssa.CallInstruction); ok && (c.releasesSubject(ci, s) || f == nil && c.ownMethod(ci.Common(), base)) {
		return true
	}
	if f != nil {
		for _, op := range in.Operands(nil) {
			if *op == nil {
				continue
			}
			if r, derived := c.vs.of(*op); !derived && c.isSubject(r, s) && c.handsOn(in, r, nil, depth) {
				return true
			}
		}
	}
	return c.handsOn(in, base, f, depth)
}

// handsOn reports whether in hands on the value of class rep whole (with
// its field f, if not nil): stores it, sends it, returns it, or passes it
// to a call or function literal that may keep it or give it back.
func (c *checker) handsOn(in ssa.Instruction, rep ssa.Value, f *types.Var, depth int) bool {
	switch x := in.(type) {
	case *ssa.UnOp, *ssa.Field, *ssa.FieldAddr, *ssa.Index, *ssa.IndexAddr, *ssa.DebugRef, *ssa.BinOp, *ssa.If:
		return false // reads from it; what a load reads is followed on its own
	case *ssa.MakeClosure:
		return c.closureDisposes(x, rep, f, depth)
	case ssa.CallInstruction:
		return c.callHandsOn(x, rep, f, depth)
	}
	return c.usesClass(in, rep) && c.escapingUse(in, rep)
}

// closureDisposes reports whether the function literal mc, bound to the
// value of class rep, disposes of it (or of its field f).
func (c *checker) closureDisposes(mc *ssa.MakeClosure, rep ssa.Value, f *types.Var, depth int) bool {
	cl, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return true
	}
	for j, b := range mc.Bindings {
		if r, _ := c.vs.of(b); r != rep {
			continue
		}
		if j >= len(cl.FreeVars) {
			return true
		}
		fv, _ := c.vs.of(cl.FreeVars[j])
		if c.disposes(cl, fv, f, depth+1) {
			return true
		}
	}
	return false
}

// callHandsOn reports whether the call x, which may be passed the value
// of class rep, hands it on: a function of the package that disposes of
// the parameter it gets it as, or else what escapingUse says (with a
// field f, any call but a builtin or one that only borrows).
func (c *checker) callHandsOn(x ssa.CallInstruction, rep ssa.Value, f *types.Var, depth int) bool {
	common := x.Common()
	if _, isGo := x.(*ssa.Go); isGo {
		if _, ok := common.Value.(*ssa.MakeClosure); ok {
			return false // the literal's MakeClosure is judged on its own
		}
	}
	callee, whole := c.wholeArg(common, rep)
	if callee != nil && len(callee.Blocks) > 0 && callee.Pkg == c.pkg {
		if whole < 0 || whole >= len(callee.Params) {
			return f == nil && c.usesClass(x, rep) && c.escapingUse(x, rep)
		}
		p, _ := c.vs.of(callee.Params[whole])
		return c.disposes(callee, p, f, depth+1)
	}
	if f == nil {
		return c.usesClass(x, rep) && c.escapingUse(x, rep)
	}
	return c.holderPassed(common, rep, whole)
}

// holderPassed reports whether a call of a function outside the package,
// or through an interface or a function value, is handed the holder of
// class rep whole (argument whole, or the receiver of an interface
// method) and may keep it: a builtin or a function that only borrows
// does not.
func (c *checker) holderPassed(common *ssa.CallCommon, rep ssa.Value, whole int) bool {
	if whole < 0 {
		if r, _ := c.vs.of(common.Value); r != rep || !common.IsInvoke() {
			return false
		}
	}
	if _, ok := common.Value.(*ssa.Builtin); ok {
		return false
	}
	return !c.borrows(common)
}

// wholeArg returns the static callee of common, if any, and the index
// of the argument (receiver first) that is the value of class rep whole,
// or -1.
func (c *checker) wholeArg(common *ssa.CallCommon, rep ssa.Value) (*ssa.Function, int) {
	callee, args := callTarget(common)
	if callee == nil {
		args = common.Args
	}
	whole := -1
	for j, a := range args {
		if r, derived := c.vs.of(a); r == rep && !derived {
			whole = j
		}
	}
	return callee, whole
}

// ownMethod reports whether common calls a method of the package on the
// value of class base as its receiver. The value's own methods may give
// it up on purpose (nats-server's mqttPipelined.abandon leaves an entry a
// reply may still reach to the GC): a path through one is not followed.
func (c *checker) ownMethod(common *ssa.CallCommon, base ssa.Value) bool {
	recv, _ := methodCall(common)
	if recv == nil || common.IsInvoke() {
		return false
	}
	fn, ok := common.Value.(*ssa.Function)
	if !ok || fn.Pkg != c.pkg || len(fn.Blocks) == 0 {
		return false
	}
	r, derived := c.vs.of(recv)
	return r == base && !derived
}
