package poolvet

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A region is the part of a function's control-flow graph that runs after
// an instruction, up to the points where a value is defined afresh.
type region struct {
	instrs []ssa.Instruction
	in     map[ssa.Instruction]bool
	endOf  map[*ssa.BasicBlock]bool // blocks whose end the region reaches
}

// after returns the instructions that can run after start, on paths that
// do not pass a kill point (a block and the index of the instruction that
// redefines the value followed).
func after(start ssa.Instruction, kills map[*ssa.BasicBlock][]int) *region {
	b := start.Block()
	if b == nil {
		return &region{in: make(map[ssa.Instruction]bool), endOf: make(map[*ssa.BasicBlock]bool)}
	}
	return reachFrom(b, slices.Index(b.Instrs, start)+1, kills)
}

// reachFrom returns the instructions that can run from index from of
// block b on, on paths that do not pass a kill point.
func reachFrom(b *ssa.BasicBlock, from int, kills map[*ssa.BasicBlock][]int) *region {
	r := &region{in: make(map[ssa.Instruction]bool), endOf: make(map[*ssa.BasicBlock]bool)}
	var queue []*ssa.BasicBlock
	visit := func(b *ssa.BasicBlock, from int) {
		to := len(b.Instrs)
		for _, k := range kills[b] {
			if k >= from && k < to {
				to = k
			}
		}
		for _, in := range b.Instrs[from:to] {
			if !r.in[in] {
				r.in[in] = true
				r.instrs = append(r.instrs, in)
			}
		}
		if to == len(b.Instrs) {
			r.endOf[b] = true
			queue = append(queue, b.Succs...)
		}
	}
	visit(b, from)
	top := make(map[*ssa.BasicBlock]bool)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if top[n] {
			continue
		}
		top[n] = true
		visit(n, 0)
	}
	return r
}

// add adds the instructions and block ends of o to r.
func (r *region) add(o *region) {
	for _, in := range o.instrs {
		if !r.in[in] {
			r.in[in] = true
			r.instrs = append(r.instrs, in)
		}
	}
	for b := range o.endOf {
		r.endOf[b] = true
	}
}
