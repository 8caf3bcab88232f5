package poolvet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// keepers are functions whose result keeps (a pointer to, or memory of) an
// argument: a reader or writer over it, a response read from it. A use of
// the result is a use of what it keeps.
var keepers = keeperSet()

func keeperSet() map[string]bool {
	m := make(map[string]bool)
	for _, f := range []string{
		"bufio.NewReader", "bufio.NewReaderSize", "bufio.NewWriter", "bufio.NewWriterSize",
		"bufio.NewReadWriter", "bufio.NewScanner",
		"bytes.NewReader", "bytes.NewBuffer", "strings.NewReader",
		"io.LimitReader", "io.TeeReader", "io.MultiReader", "io.MultiWriter",
		"io.NewSectionReader", "io.NopCloser", "io/ioutil.NopCloser",
		"net/http.ReadResponse", "net/http.ReadRequest", "net/http.NewRequest",
		"net/http.NewRequestWithContext", "net/http.MaxBytesReader",
		"encoding/json.NewDecoder", "encoding/json.NewEncoder",
		"encoding/xml.NewDecoder", "encoding/xml.NewEncoder",
		"encoding/csv.NewReader", "encoding/csv.NewWriter",
		"compress/gzip.NewReader", "compress/gzip.NewWriter", "compress/gzip.NewWriterLevel",
		"compress/zlib.NewReader", "compress/zlib.NewWriter", "compress/zlib.NewWriterLevel",
		"compress/flate.NewReader", "compress/flate.NewWriter",
		module + "/bufiopool.NewReader", module + "/bufiopool.NewWriter",
	} {
		m[f] = true
	}
	for _, p := range codecPackages {
		m[p+".NewWriter"] = true
		m[p+".NewReader"] = true
	}
	return m
}

// isKeeper reports whether a call's result keeps its arguments.
func isKeeper(common *ssa.CallCommon) bool {
	fn, ok := common.Value.(*ssa.Function)
	if !ok || fn.Signature.Recv() != nil {
		return false
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	return keepers[obj.Pkg().Path()+"."+obj.Name()]
}

// holders adds to classes the values of fn that keep memory of a class in
// it, through a keeper call (bw := bufio.NewWriter(zw)), and returns the
// cells: locals and new objects with a field or element set to such memory
// (r := result{data: b.Bytes()}), and the addresses of those fields. A
// value parted from the classes (see parted) makes no cell.
func (c *checker) holders(fn *ssa.Function, classes, parted map[ssa.Value]bool) map[ssa.Value]bool {
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if v, ok := c.keptBy(in, classes); ok {
					if r, _ := c.vs.of(v); !classes[r] {
						classes[r] = true
						changed = true
					}
				}
			}
		}
	}
	cells := make(map[ssa.Value]bool)
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if r, _ := c.vs.of(st.Val); !classes[r] || c.fromParted(st.Val, parted) {
				continue
			}
			switch a := st.Addr.(type) {
			case *ssa.FieldAddr:
				if al, ok := a.X.(*ssa.Alloc); ok {
					cells[al] = true
					cells[a] = true
					c.sameField(al, a.Field, cells)
				}
			case *ssa.IndexAddr:
				if al, ok := a.X.(*ssa.Alloc); ok {
					cells[al] = true
				}
			}
		}
	}
	return cells
}

// sameField marks every address of field f of al as a cell.
func (c *checker) sameField(al *ssa.Alloc, f int, cells map[ssa.Value]bool) {
	for _, r := range *al.Referrers() {
		if fa, ok := r.(*ssa.FieldAddr); ok && fa.Field == f {
			cells[fa] = true
		}
	}
}

// keptBy returns the value in makes that keeps memory of classes: a keeper
// call's result, or the non-error result extracted from it.
func (c *checker) keptBy(in ssa.Instruction, classes map[ssa.Value]bool) (ssa.Value, bool) {
	switch x := in.(type) {
	case *ssa.Call:
		if !isKeeper(x.Common()) {
			return nil, false
		}
		for _, a := range x.Common().Args {
			if r, _ := c.vs.of(a); classes[r] {
				return x, true
			}
		}
	case *ssa.Extract:
		if isErrorType(x.Type()) || !aliasing(x.Type()) {
			return nil, false
		}
		if r, _ := c.vs.of(x.Tuple); classes[r] {
			return x, true
		}
	}
	return nil, false
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// usesCell reports whether in reads a cell or hands it on: a load of it, or
// any use of it but taking the address of one of its fields.
func usesCell(in ssa.Instruction, cells map[ssa.Value]bool) bool {
	switch x := in.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.DebugRef:
		return false
	case *ssa.Store:
		return cells[x.Val]
	}
	for _, op := range in.Operands(nil) {
		if *op != nil && cells[*op] {
			return true
		}
	}
	return false
}

// lateUse returns, for a release r, a deferred call or a goroutine started
// before it that uses r's value: it runs when the function returns, or
// whenever the goroutine is scheduled, after r. It returns nil if none.
func (c *checker) lateUses(fn *ssa.Function, r release, classes map[ssa.Value]bool) []ssa.CallInstruction {
	regR := after(r.instr, c.kills(fn, r.root))
	returns := false
	for _, in := range regR.instrs {
		switch in.(type) {
		case *ssa.RunDefers, *ssa.Return:
			returns = true
		}
	}
	var out []ssa.CallInstruction
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			var ci ssa.CallInstruction
			switch x := in.(type) {
			case *ssa.Defer:
				if !returns {
					continue
				}
				ci = x
			case *ssa.Go:
				ci = x
			default:
				continue
			}
			if !c.callUses(ci, classes) {
				continue
			}
			reg := after(ci, c.kills(fn, r.root))
			if !reg.in[r.instr] {
				continue
			}
			if _, ok := ci.(*ssa.Go); ok && waitsBefore(reg, r.instr) {
				continue
			}
			out = append(out, ci)
		}
	}
	return out
}

// callUses reports whether a call is passed memory of classes, as an
// argument or a closure's binding, and is not a release of it.
func (c *checker) callUses(ci ssa.CallInstruction, classes map[ssa.Value]bool) bool {
	for _, rel := range c.releasesAt(ci) {
		if classes[rel.root] {
			return false
		}
	}
	common := ci.Common()
	vals := append([]ssa.Value(nil), common.Args...)
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		vals = append(vals, mc.Bindings...)
	} else if !common.IsInvoke() {
		vals = append(vals, common.Value)
	} else {
		vals = append(vals, common.Value)
	}
	for _, v := range vals {
		if r, _ := c.vs.of(v); classes[r] {
			return true
		}
	}
	return false
}

// closureUses reports whether a call calls a closure bound to memory of
// classes (flush := func() { w.Write(b.Bytes()) }; ...; flush()).
func (c *checker) closureUses(in ssa.Instruction, classes map[ssa.Value]bool) bool {
	ci, ok := in.(ssa.CallInstruction)
	if !ok {
		return false
	}
	mc, ok := ci.Common().Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	for _, bnd := range mc.Bindings {
		if r, _ := c.vs.of(bnd); classes[r] {
			return true
		}
	}
	return false
}

// rangeStmts lists the range statements of the package's files, for
// reporting an element read at its loop.
func (c *checker) rangeAt(pos token.Pos) token.Pos {
	if c.ranges == nil {
		c.ranges = []*ast.RangeStmt{}
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if rs, ok := n.(*ast.RangeStmt); ok {
					c.ranges = append(c.ranges, rs)
				}
				return true
			})
		}
	}
	var best *ast.RangeStmt
	for _, rs := range c.ranges {
		if rs.Body.Pos() <= pos && pos < rs.Body.End() && (best == nil || rs.Pos() > best.Pos()) {
			best = rs
		}
	}
	if best == nil {
		return pos
	}
	return best.For
}

// waitsBefore reports whether the function may wait for something between
// a go statement and the release put, on a path in reg: a channel receive,
// a select, or a Lock or Wait method of package sync. The goroutine may be
// done with the value by then, so its use is not reported (fasthttp's
// client.go hands a pooled channel to a goroutine and waits on it).
func waitsBefore(reg *region, put ssa.Instruction) bool {
	for _, in := range reg.instrs {
		if !waits(in) {
			continue
		}
		if after(in, nil).in[put] {
			return true
		}
	}
	return false
}

// waits reports whether in may block until another goroutine acts.
func waits(in ssa.Instruction) bool {
	switch x := in.(type) {
	case *ssa.Select:
		return true
	case *ssa.UnOp:
		return x.Op == token.ARROW
	case ssa.CallInstruction:
		fn, ok := x.Common().Value.(*ssa.Function)
		if !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync" {
			return false
		}
		switch fn.Name() {
		case "Lock", "RLock", "Wait":
			return true
		}
	}
	return false
}
