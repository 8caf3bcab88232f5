package poolvet

import (
	"go/types"

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
			if old == nil || len(old.Put) != len(f.Put) || len(old.Close) != len(f.Close) {
				c.facts[fn] = f
				changed = true
			}
		}
		if !changed {
			break
		}
	}
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
	var f releasesFact
	for i, v := range candidates(fn) {
		rep, _ := c.vs.of(v)
		if c.givenBack(fn, rep, put, rels) {
			f.Put = append(f.Put, i)
		}
		if c.givenBack(fn, rep, closeHandle, rels) {
			f.Close = append(f.Close, i)
		}
	}
	if len(f.Put) == 0 && len(f.Close) == 0 {
		return nil
	}
	return &f
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
	gen := make(map[*ssa.BasicBlock]bool)
	for _, r := range rels {
		if r.root == rep && r.kind == k {
			gen[r.instr.Block()] = true
		}
	}
	if len(gen) == 0 {
		return false
	}
	// A branch on the value alone (a nil check, a size limit) decides
	// between giving it back and dropping it: either way the caller no
	// longer owns it.
	for _, b := range fn.Blocks {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && c.dependsOnly(iff.Cond, rep, 0) {
			gen[b] = true
		}
	}
	return mustPass(fn, gen)
}

// mustPass reports whether every path from fn's entry to a return passes
// through a block in gen.
func mustPass(fn *ssa.Function, gen map[*ssa.BasicBlock]bool) bool {
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
	returns := 0
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && (b.Index == 0 || len(b.Preds) > 0) {
			returns++
			if !out[b] {
				return false
			}
		}
	}
	return returns > 0
}

// dependsOnly reports whether v is computed from the class rep, constants
// and globals alone.
func (c *checker) dependsOnly(v ssa.Value, rep ssa.Value, depth int) bool {
	if depth > 10 {
		return false
	}
	if r, _ := c.vs.of(v); r == rep {
		return true
	}
	switch x := v.(type) {
	case *ssa.Const, *ssa.Global:
		return true
	case *ssa.Call:
		if x.Call.IsInvoke() {
			if !c.dependsOnly(x.Call.Value, rep, depth+1) {
				return false
			}
		} else {
			switch x.Call.Value.(type) {
			case *ssa.Function, *ssa.Builtin:
			default:
				return false
			}
		}
		for _, a := range x.Call.Args {
			if !c.dependsOnly(a, rep, depth+1) {
				return false
			}
		}
		return true
	case *ssa.BinOp, *ssa.UnOp, *ssa.Convert, *ssa.ChangeType, *ssa.FieldAddr, *ssa.Field, *ssa.Extract, *ssa.IndexAddr, *ssa.Index:
		for _, op := range v.(ssa.Instruction).Operands(nil) {
			if *op != nil && !c.dependsOnly(*op, rep, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
