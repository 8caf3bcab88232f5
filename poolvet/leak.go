package poolvet

import (
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// leakCheck enables the leak check, on by default: a value taken from a
// pool that never leaves the function and is not given back on a path to a
// return. Such a value is a reuse missed (the GC collects it and the next
// Get allocates anew); for a pooled handle it is a pooled codec state lost.
var leakCheck = true

func init() {
	Analyzer.Flags.BoolVar(&leakCheck, "leak", true, "report values taken from a pool and not given back on a path that returns (-leak=false turns it off)")
}

// gets are the methods that take a value from a pool.
var gets = map[string]bool{
	"sync.Pool.Get":                 true,
	module + ".Pool.Get":            true,
	module + ".Slices.Get":          true,
	module + "/bytebuf.Pool.Get":    true,
	module + "/jsonpool.Values.Get": true,
}

// handleMakers are the functions that take a pooled handle, given back by
// Close: the codec packages' and bufiopool's NewWriter and NewReader.
var handleMakers = handleMakerSet()

func handleMakerSet() map[string]bool {
	m := map[string]bool{
		module + "/bufiopool.NewReader": true,
		module + "/bufiopool.NewWriter": true,
	}
	for _, p := range codecPackages {
		m[p+".NewWriter"] = true
		m[p+".NewReader"] = true
	}
	return m
}

// taken returns the value a call takes from a pool, and the error it
// returns beside it, if any: a Get, or a pooled handle's constructor.
func (c *checker) taken(call *ssa.Call) (v ssa.Value, errv ssa.Value, handle bool) {
	callee, _ := callTarget(call.Common())
	if callee == nil {
		return nil, nil, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return nil, nil, false
	}
	if gets[methodKey(obj)] {
		return call, nil, false
	}
	if f := c.factOf(callee); f != nil && len(f.Takes) > 0 && passedNil(call, f.Through) {
		if f.NilOnErr {
			errv = takenResult(call, call.Call.Signature().Results().Len()-1)
		}
		return takenResult(call, f.Takes[0]), errv, false
	}
	if obj.Pkg() == nil || !handleMakers[obj.Pkg().Path()+"."+obj.Name()] {
		return nil, nil, false
	}
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok {
			switch x.Index {
			case 0:
				v = x
			case 1:
				errv = x
			}
		}
	}
	return v, errv, v != nil
}

// checkLeaks reports Gets whose value reaches a return without being
// given back or handed on: a use that may keep it (escapingUse) ends the
// paths through it, not the check, so an error return before the value
// goes to an interface method that may keep it still loses it (syncthing's
// readMessageAfterHeader, go-sstables' FileReader.ReadNext).
func (c *checker) checkLeaks(fn *ssa.Function, rels []release) {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			v, errv, handle := c.taken(call)
			if v == nil {
				continue
			}
			rep, _ := c.vs.of(v)
			if c.takenByFact(call) && !releasedIn(rels, rep) {
				continue
			}
			kills := c.kills(fn, rep)
			c.killEscapes(fn, rep, kills)
			for _, r := range rels {
				if r.root == rep {
					blk := r.instr.Block()
					kills[blk] = append(kills[blk], slices.Index(blk.Instrs, ssa.Instruction(r.instr)))
				}
			}
			if errv != nil {
				killErrBranch(kills, errv)
			}
			killNilBranch(kills, v)
			// The region starts at the value: an Extract of a handle
			// redefines it after the call.
			c.reportLeak(fn, call, after(v.(ssa.Instruction), kills), handle)
		}
	}
}

// killErrBranch cuts the branches taken when a constructor's error is not
// nil: the handle is nil there, nothing to give back.
func killErrBranch(kills map[*ssa.BasicBlock][]int, errv ssa.Value) {
	for _, r := range *errv.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		for _, rr := range *cmp.Referrers() {
			iff, ok := rr.(*ssa.If)
			if !ok {
				continue
			}
			failed := iff.Block().Succs[0]
			if cmp.Op == token.EQL {
				failed = iff.Block().Succs[1]
			}
			kills[failed] = append(kills[failed], 0)
		}
	}
}

// returnPos is where a report on ret goes: its position, or the closing
// brace of fn for the implicit return at the end of a body.
func returnPos(fn *ssa.Function, ret *ssa.Return) token.Pos {
	if at := ret.Pos(); at.IsValid() || fn.Syntax() == nil {
		return at
	}
	return fn.Syntax().End() - 1
}

// reportLeak reports call if reg, what runs after it until the value is
// given back, reaches a return: at the first return, by position, with
// the others it reaches named after it.
func (c *checker) reportLeak(fn *ssa.Function, call *ssa.Call, reg *region, handle bool) {
	var at []token.Pos
	for _, x := range reg.instrs {
		if ret, ok := x.(*ssa.Return); ok {
			at = append(at, posOr(returnPos(fn, ret), call.Pos()))
		}
	}
	if len(at) == 0 {
		return
	}
	slices.Sort(at)
	at = slices.Compact(at)
	where := c.where(at[0])
	if len(at) > 1 {
		also := make([]string, len(at)-1)
		for i, p := range at[1:] {
			also[i] = c.where(p)
		}
		where += " (also " + strings.Join(also, ", ") + ")"
	}
	if handle {
		c.report(call.Pos(), fmt.Sprintf("pooled handle is not given back: no Close on the path to the return at %s", where), 0)
	} else {
		c.report(call.Pos(), fmt.Sprintf("value taken from the pool is not given back on the path to the return at %s: the next Get allocates anew", where), 0)
	}
}

func posOr(p, q token.Pos) token.Pos {
	if p.IsValid() {
		return p
	}
	return q
}

// killEscapes adds to kills the uses of a value of class rep, or memory
// of it, that may let it outlive fn, come back under another name, or be
// given back elsewhere: anything but method calls on it, calls that cannot
// return its memory, comparisons, releases and conversions counts. Past
// such a use the value is no longer fn's to give back.
func (c *checker) killEscapes(fn *ssa.Function, rep ssa.Value, kills map[*ssa.BasicBlock][]int) {
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			if c.usesClass(in, rep) && c.escapingUse(in, rep) {
				kills[b] = append(kills[b], i)
			}
		}
	}
}

// usesClass reports whether in has an operand of class rep and is not
// itself a value of that class (the same memory under another name: its
// uses count).
func (c *checker) usesClass(in ssa.Instruction, rep ssa.Value) bool {
	uses := false
	for _, op := range in.Operands(nil) {
		if *op != nil {
			if r, _ := c.vs.of(*op); r == rep {
				uses = true
			}
		}
	}
	if !uses {
		return false
	}
	if v, ok := in.(ssa.Value); ok {
		if r, _ := c.vs.of(v); r == rep {
			return false
		}
	}
	return true
}

// escapingUse reports whether in, which uses the value of class rep, may
// let it outlive the function or hand it on.
func (c *checker) escapingUse(in ssa.Instruction, rep ssa.Value) bool {
	switch x := in.(type) {
	case *ssa.BinOp, *ssa.DebugRef:
		return false
	case *ssa.UnOp, *ssa.Field, *ssa.Index:
		return aliasing(x.(ssa.Value).Type()) // a number read from it keeps nothing
	case *ssa.Store:
		return c.storeEscapes(x, rep)
	case *ssa.Go:
		return true
	case ssa.CallInstruction:
		return c.callEscapes(x, rep)
	}
	return true
}

// storeEscapes reports whether st stores the value of class rep anywhere
// but into the pooled value itself or a once-stored local.
func (c *checker) storeEscapes(st *ssa.Store, rep ssa.Value) bool {
	if r, _ := c.vs.of(st.Addr); r == rep {
		return false // into the pooled value itself
	}
	_, single := c.vs.single[st.Addr]
	return !single
}

// callEscapes reports whether a call that uses the value of class rep may
// keep it or hand it back: a release or a builtin does not (len, cap,
// copy, append: nothing keeps it).
func (c *checker) callEscapes(x ssa.CallInstruction, rep ssa.Value) bool {
	if len(c.releasesAt(x)) > 0 {
		return false
	}
	common := x.Common()
	if _, ok := common.Value.(*ssa.Builtin); ok {
		return false
	}
	if c.argEscapes(common, rep) {
		return true
	}
	if v := x.Value(); v != nil && common.IsInvoke() {
		if r, _ := c.vs.of(common.Value); r == rep {
			return true
		}
	}
	return false
}

// argEscapes reports whether the call passes the value of class rep as an
// argument other than a static method's receiver, whole, or as memory of
// it to a callee whose results may carry it back, to a parameter that the
// callee does not only borrow.
func (c *checker) argEscapes(common *ssa.CallCommon, rep ssa.Value) bool {
	first := 0
	if recv, _ := methodCall(common); recv != nil && !common.IsInvoke() {
		if r, _ := c.vs.of(recv); r == rep {
			first = 1
		}
	}
	borrows := c.borrows(common)
	for i, a := range common.Args[first:] {
		r, derived := c.vs.of(a)
		if r != rep || c.borrowsArg(common, first+i) {
			continue // a function that only borrows it keeps nothing
		}
		if (!derived && !borrows) || mayReturnMemory(common.Signature().Results()) {
			return true // a callee may keep it or hand it back
		}
	}
	return false
}

// borrows reports whether the call only borrows its arguments: a function
// of the standard library (fmt.Fprintf, json.Unmarshal, io.Copy) whose
// results cannot carry them back. Such a function keeps nothing after it
// returns; a function of the program may keep what it is handed, and owns
// it from then on, unless its borrowsFact says it only borrows it
// (borrowsArg, borrow.go).
func (c *checker) borrows(common *ssa.CallCommon) bool {
	if common.IsInvoke() {
		return stdInterfaceMethod(common)
	}
	fn, ok := common.Value.(*ssa.Function)
	if !ok || fn.Pkg == nil || fn.Signature.Recv() != nil {
		return false
	}
	return isStd(fn.Pkg.Pkg.Path())
}

// stdPkgs caches isStd's answers.
var stdPkgs sync.Map

// isStd reports whether path is a package of the standard library: its
// first element has no dot, and GOROOT holds it.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") {
		return false
	}
	if v, ok := stdPkgs.Load(path); ok {
		return v.(bool)
	}
	fi, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
	std := err == nil && fi.IsDir()
	stdPkgs.Store(path, std)
	return std
}

// mayReturnMemory reports whether results can carry memory passed in:
// anything but basic values and errors.
func mayReturnMemory(results *types.Tuple) bool {
	for i := range results.Len() {
		t := results.At(i).Type()
		if types.Identical(t, types.Universe.Lookup("error").Type()) {
			continue
		}
		if aliasing(t) {
			return true
		}
	}
	return false
}
