package poolvet

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// leakCheck enables the quieter check: a value taken from a pool that
// never leaves the function and is not given back on a path to a return.
// Such a value is not a bug, only a reuse missed: the GC collects it and the
// next Get allocates anew.
var leakCheck bool

func init() {
	Analyzer.Flags.BoolVar(&leakCheck, "leak", false, "also report values taken from a pool and not given back on a path that returns (a missed reuse, not a bug)")
}

// gets are the methods that take a value from a pool.
var gets = map[string]bool{
	"sync.Pool.Get":                 true,
	module + ".Pool.Get":            true,
	module + ".Slices.Get":          true,
	module + "/bytebuf.Pool.Get":    true,
	module + "/jsonpool.Values.Get": true,
}

// checkLeaks reports Gets whose value stays in fn and reaches a return
// without being given back.
func (c *checker) checkLeaks(fn *ssa.Function, rels []release) {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			callee, _ := callTarget(call.Common())
			if callee == nil {
				continue
			}
			obj, ok := callee.Object().(*types.Func)
			if !ok || !gets[methodKey(obj)] {
				continue
			}
			rep, _ := c.vs.of(call)
			if c.escapesFunc(fn, rep) {
				continue
			}
			kills := c.kills(fn, rep)
			for _, r := range rels {
				if r.root == rep {
					blk := r.instr.Block()
					kills[blk] = append(kills[blk], slices.Index(blk.Instrs, ssa.Instruction(r.instr)))
				}
			}
			reg := after(call, kills)
			for _, x := range reg.instrs {
				if ret, ok := x.(*ssa.Return); ok {
					at := ret.Pos()
					if !at.IsValid() && fn.Syntax() != nil {
						at = fn.Syntax().End() - 1 // the closing brace
					}
					c.report(call.Pos(), fmt.Sprintf("value taken from the pool is not given back on the path to the return at %s: the next Get allocates anew", c.where(posOr(at, call.Pos()))), 0)
					break
				}
			}
		}
	}
}

func posOr(p, q token.Pos) token.Pos {
	if p.IsValid() {
		return p
	}
	return q
}

// escapesFunc reports whether a value of class rep, or memory of it, may
// outlive fn, come back under another name, or be given back elsewhere:
// anything but method calls on it, calls that cannot return its memory,
// comparisons, releases and conversions counts.
func (c *checker) escapesFunc(fn *ssa.Function, rep ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c.usesClass(in, rep) && c.escapingUse(in, rep) {
				return true
			}
		}
	}
	return false
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
// it to a callee whose results may carry it back.
func (c *checker) argEscapes(common *ssa.CallCommon, rep ssa.Value) bool {
	args := common.Args
	if recv, _ := methodCall(common); recv != nil && !common.IsInvoke() {
		if r, _ := c.vs.of(recv); r == rep {
			args = args[1:]
		}
	}
	for _, a := range args {
		r, derived := c.vs.of(a)
		if r != rep {
			continue
		}
		if !derived || mayReturnMemory(common.Signature().Results()) {
			return true // a callee may keep it or hand it back
		}
	}
	return false
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
