package poolvet

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Suggested fixes, applied by go fix -fixtool=$(which poolvet) or an
// editor. Each is offered only where the change is mechanical and keeps
// the program's meaning; elsewhere the report's message says what to do.

// fileOf returns the file of the package that holds pos, or nil.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// pathTo returns the path of AST nodes from the innermost one enclosing
// [pos, end) up to its file, or nil.
func (c *checker) pathTo(pos, end token.Pos) []ast.Node {
	f := c.fileOf(pos)
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, end)
	return path
}

// indentAt returns the leading white space of the line that holds pos.
func (c *checker) indentAt(pos token.Pos) string {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// src returns the source text of n.
func (c *checker) src(n ast.Node) string {
	tf := c.pass.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	data, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	return string(data[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// callAt returns the call expression whose Lparen is at pos (an SSA
// call's position).
func (c *checker) callAt(pos token.Pos) *ast.CallExpr { return c.calls[pos] }

// stmtOf returns the statement of path[0..] that directly holds n, and
// whether it sits in a statement list, where statements can be added
// before or after it.
func stmtOf(path []ast.Node) (ast.Stmt, bool) {
	for i, n := range path {
		s, ok := n.(ast.Stmt)
		if !ok {
			continue
		}
		if i+1 < len(path) {
			switch path[i+1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				return s, true
			}
		}
		return s, false
	}
	return nil, false
}

// resetFix returns the fix for a value Put without Reset: x.Reset() before
// the Put, or after the Get for a deferred Put (a Reset before a deferred
// Put would run before the value is used). It returns nil unless the Put's
// argument is a variable.
func (c *checker) resetFix(r release, getPos token.Pos) []analysis.SuggestedFix {
	ce := c.callAt(r.instr.Common().Pos())
	if ce == nil || len(ce.Args) != 1 {
		return nil
	}
	id, ok := ast.Unparen(ce.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	reset := id.Name + ".Reset()"
	if !r.deferred {
		st, inList := stmtOf(c.pathTo(ce.Pos(), ce.End()))
		if st == nil || !inList {
			return nil
		}
		return []analysis.SuggestedFix{{
			Message:   "Call " + reset + " before the Put",
			TextEdits: []analysis.TextEdit{{Pos: st.Pos(), End: st.Pos(), NewText: []byte(reset + "\n" + c.indentAt(st.Pos()))}},
		}}
	}
	get := c.callAt(getPos)
	if get == nil {
		return nil
	}
	st, inList := stmtOf(c.pathTo(get.Pos(), get.End()))
	as, ok := st.(*ast.AssignStmt)
	if !ok || !inList || len(as.Lhs) != 1 {
		return nil
	}
	lhs, ok := as.Lhs[0].(*ast.Ident)
	if !ok || (c.pass.TypesInfo.Defs[lhs] != v && c.pass.TypesInfo.Uses[lhs] != v) {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "Call " + reset + " after the Get",
		TextEdits: []analysis.TextEdit{{Pos: as.End(), End: as.End(), NewText: []byte("\n" + c.indentAt(as.Pos()) + reset)}},
	}}
}

// copyFix returns the fix for pooled memory returned while a deferred Put
// gives it back: return a copy, bytes.Clone(b.Bytes()), slices.Clone(s),
// or strings.Clone(s) for a string made over the memory with package
// unsafe.
// ret is the position of the return, at the position of the returned
// value.
func (c *checker) copyFix(ret, at token.Pos) []analysis.SuggestedFix {
	var rs *ast.ReturnStmt
	for _, n := range c.pathTo(ret, ret) {
		if r, ok := n.(*ast.ReturnStmt); ok {
			rs = r
			break
		}
	}
	if rs == nil {
		return nil // a store to a named result: the assignment is the place
	}
	var e ast.Expr
	for _, r := range rs.Results {
		if r.Pos() <= at && at < r.End() {
			e = r
		}
	}
	if e == nil {
		return nil
	}
	var pkg, fn string
	switch u := c.pass.TypesInfo.TypeOf(e).Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return nil
		}
		pkg, fn = "strings", "strings.Clone" // a string made with package unsafe
	case *types.Slice:
		elem, ok := u.Elem().Underlying().(*types.Basic)
		if !ok {
			return nil // a copy of the slice would still point where its elements do
		}
		pkg, fn = "slices", "slices.Clone"
		if elem.Kind() == types.Byte {
			pkg, fn = "bytes", "bytes.Clone"
		}
	default:
		return nil
	}
	edits, ok := c.importEdits(c.fileOf(ret), pkg, e.Pos())
	if !ok {
		return nil
	}
	edits = append(edits,
		analysis.TextEdit{Pos: e.Pos(), End: e.Pos(), NewText: []byte(fn + "(")},
		analysis.TextEdit{Pos: e.End(), End: e.End(), NewText: []byte(")")})
	return []analysis.SuggestedFix{{Message: "Return a copy made with " + fn, TextEdits: edits}}
}

// importEdits returns the edits that import package path into f under its
// own name, none if it is already, and false if that name means something
// else at pos.
func (c *checker) importEdits(f *ast.File, path string, pos token.Pos) ([]analysis.TextEdit, bool) {
	if f == nil {
		return nil, false
	}
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return nil, false
	}
	_, obj := scope.LookupParent(path, pos)
	if pn, ok := obj.(*types.PkgName); ok {
		return nil, pn.Imported().Path() == path
	}
	if obj != nil {
		return nil, false
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path || (imp.Name != nil && imp.Name.Name == path) {
			return nil, false // imported under another name, or the name is taken by a blank or dot import
		}
	}
	q := strconv.Quote(path)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Lparen.IsValid() {
			return []analysis.TextEdit{{Pos: g.Lparen + 1, End: g.Lparen + 1, NewText: []byte("\n\t" + q)}}, true
		}
	}
	return []analysis.TextEdit{{Pos: f.Name.End(), End: f.Name.End(), NewText: []byte("\n\nimport " + q)}}, true
}

// freshName returns a name based on base that no identifier in scope
// node uses.
func freshName(node ast.Node, base string) string {
	used := map[string]bool{}
	ast.Inspect(node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	name := base
	for i := 2; used[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

// usesIn reports whether some Go file of the package's directory that the
// pass does not see (a test file of another build of the package) may use
// the package-level name: a fix that rewrites every use must not miss one.
func (c *checker) usesIn(name string) bool {
	if len(c.pass.Files) == 0 {
		return true
	}
	seen := map[string]bool{}
	for _, f := range c.pass.Files {
		seen[c.pass.Fset.File(f.Pos()).Name()] = true
	}
	dir := filepath.Dir(c.pass.Fset.File(c.pass.Files[0].Pos()).Name())
	for name := range seen {
		if filepath.Dir(name) != dir {
			return true // files of several directories (cgo's output): no telling
		}
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return true
	}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return true
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, data, parser.SkipObjectResolution)
		if err != nil {
			if bytes.Contains(data, []byte(name)) {
				return true
			}
			continue
		}
		if f.Name.Name != c.pass.Pkg.Name() {
			continue // an external test package sees no unexported name
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// enclosingFunc returns the innermost function (declaration or literal)
// of path.
func enclosingFunc(path []ast.Node) ast.Node {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// assignedBetween reports whether fn assigns to v, or takes its address,
// between positions from and to.
func (c *checker) assignedBetween(fn ast.Node, v types.Object, from, to token.Pos) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || n.Pos() >= to || n.End() <= from {
			return n != nil && n.Pos() < to
		}
		found = found || c.assigns(n, v, from)
		return !found
	})
	return found
}

// assigns reports whether the node n assigns to v (an assignment that
// starts after from, an increment or decrement, or a range clause) or
// takes its address.
func (c *checker) assigns(n ast.Node, v types.Object, from token.Pos) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && c.pass.TypesInfo.Uses[id] == v
	}
	switch x := n.(type) {
	case *ast.AssignStmt:
		if x.Pos() <= from {
			return false
		}
		for _, l := range x.Lhs {
			if is(l) {
				return true
			}
		}
	case *ast.IncDecStmt:
		return is(x.X)
	case *ast.UnaryExpr:
		return x.Op == token.AND && is(x.X)
	case *ast.RangeStmt:
		return (x.Key != nil && is(x.Key)) || (x.Value != nil && is(x.Value))
	}
	return false
}

// describeFix names the rewrite of a pool in a fix's message.
func describeFix(pool string, t string) string {
	return fmt.Sprintf("Keep a *%s in %s: rewrite its New, Gets and Puts", t, pool)
}

// fixState holds, per sync.Pool that holds non-pointer values, the rewrite
// of its New, Gets and Puts into the same with pointers: nil when it cannot
// be rewritten.
type fixState struct {
	pools map[types.Object][]analysis.SuggestedFix
}

// nonPointerFix returns the fix for a non-pointer value of type t Put into
// the sync.Pool key: keep a *t in the pool instead. Each function that
// takes a value from the pool into a variable and puts that variable back
// keeps the pointer it got,
//
//	bp := pool.Get().(*[]byte)
//	b := *bp
//	...
//	*bp = b[:0]
//	pool.Put(bp)
//
// so that no Put allocates; a Get without a Put of its variable in the same
// function reads through the pointer: *(pool.Get().(*[]byte)). Since every
// use of the pool changes, the fix exists only for an unexported
// package-level variable used by nothing but its New, Gets and Puts, each
// in a form the rewrite knows; otherwise the report suggests reuse.Pool.
// (Put(&b) of a variable b would also silence the report, but b then moves
// to the heap: one allocation per Put, as the box was.)
func (c *checker) nonPointerFix(key types.Object, t types.Type) []analysis.SuggestedFix {
	if c.fix == nil {
		c.fix = &fixState{pools: make(map[types.Object][]analysis.SuggestedFix)}
	}
	fix, ok := c.fix.pools[key]
	if !ok {
		fix = c.rewritePool(key, t)
		c.fix.pools[key] = fix
	}
	return fix
}

// A poolGet is a Get of the pool whose value is asserted to the pool's
// type, pool.Get().(T), and, when stmt is set, defined into the variable v
// by a statement of a list: v := pool.Get().(T). puts are the Puts of v in
// the same function.
type poolGet struct {
	stmt   *ast.AssignStmt
	assert *ast.TypeAssertExpr
	v      types.Object
	fn     ast.Node
	puts   []*ast.CallExpr
	inList bool
}

// poolUses holds the uses of a pool variable that the rewrite found: its
// declaration, its Gets (those that define a variable also by that
// variable) and its Puts, each with the path above its call.
type poolUses struct {
	decl   *ast.ValueSpec
	gets   []*poolGet
	byVar  map[types.Object]*poolGet
	puts   []*ast.CallExpr
	putCtx map[*ast.CallExpr][]ast.Node
}

// rewritePool returns the fix that makes the sync.Pool variable key keep
// *t instead of t, or nil when some use of it is not in a form the rewrite
// knows (see nonPointerFix).
func (c *checker) rewritePool(key types.Object, t types.Type) []analysis.SuggestedFix {
	pv, ok := c.rewritablePoolVar(key)
	if !ok {
		return nil
	}
	u := c.poolUsesOf(pv, t)
	if u == nil || u.decl == nil || len(u.puts) == 0 {
		return nil
	}
	ts := types.TypeString(t, types.RelativeTo(c.pass.Pkg))
	edits, ok := c.newEdits(u.decl, pv, t)
	if !ok {
		return nil
	}
	if !c.matchPuts(u, t) {
		return nil
	}
	for _, g := range u.gets {
		edits = append(edits, c.getEdits(g, u.putCtx)...)
	}
	return []analysis.SuggestedFix{{Message: describeFix(pv.Name(), ts), TextEdits: edits}}
}

// rewritablePoolVar returns key as the variable the rewrite may change: an
// unexported package-level variable of this package that no file outside
// the pass may use.
func (c *checker) rewritablePoolVar(key types.Object) (*types.Var, bool) {
	pv, ok := key.(*types.Var)
	if !ok || pv.IsField() || pv.Exported() || pv.Pkg() != c.pass.Pkg || pv.Parent() != c.pass.Pkg.Scope() {
		return nil, false
	}
	if c.usesIn(pv.Name()) {
		return nil, false
	}
	return pv, true
}

// poolUsesOf returns the declaration, Gets and Puts of the pool variable
// pv in the pass's files, or nil when some use of it is neither a Get of
// value type t in a form getStmt knows nor a Put.
func (c *checker) poolUsesOf(pv *types.Var, t types.Type) *poolUses {
	u := &poolUses{byVar: map[types.Object]*poolGet{}, putCtx: map[*ast.CallExpr][]ast.Node{}}
	bad := false
	for _, f := range c.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok {
				return !bad
			}
			if !c.addPoolUse(u, pv, t, id, stack) {
				bad = true
				return false
			}
			return true
		})
	}
	if bad {
		return nil
	}
	return u
}

// addPoolUse records in u the identifier id, at the top of stack, when it
// defines or uses pv. It reports false for a use the rewrite does not know.
func (c *checker) addPoolUse(u *poolUses, pv *types.Var, t types.Type, id *ast.Ident, stack []ast.Node) bool {
	if c.pass.TypesInfo.Defs[id] == pv {
		if vs, ok := stack[len(stack)-2].(*ast.ValueSpec); ok {
			u.decl = vs
		}
		return true
	}
	if c.pass.TypesInfo.Uses[id] != pv {
		return true
	}
	path := make([]ast.Node, len(stack))
	for i := range stack {
		path[i] = stack[len(stack)-1-i]
	}
	return c.addPoolCall(u, t, path)
}

// addPoolCall records in u the call of a method of the pool whose path
// runs from the pool's identifier up: a Get in a form getStmt knows, or a
// Put. It reports false for any other use.
func (c *checker) addPoolCall(u *poolUses, t types.Type, path []ast.Node) bool {
	if len(path) < 4 {
		return false
	}
	// path[0] is id; path[1] the selector; path[2] the call.
	sel, ok1 := path[1].(*ast.SelectorExpr)
	call, ok2 := path[2].(*ast.CallExpr)
	if !ok1 || !ok2 || call.Fun != sel {
		return false
	}
	switch sel.Sel.Name {
	case "Get":
		g := c.getStmt(path[3:], t)
		if g == nil {
			return false
		}
		u.gets = append(u.gets, g)
		if g.v != nil {
			u.byVar[g.v] = g
		}
	case "Put":
		u.puts = append(u.puts, call)
		u.putCtx[call] = path[3:]
	default:
		return false
	}
	return true
}

// matchPuts gives each Put of u to the Get whose variable it puts back,
// and reports whether every Put is one the rewrite knows.
func (c *checker) matchPuts(u *poolUses, t types.Type) bool {
	for _, p := range u.puts {
		g := c.putGet(u, p, t)
		if g == nil {
			return false
		}
		g.puts = append(g.puts, p)
	}
	return true
}

// putGet returns the Get of the same function whose variable the Put p
// puts back (that variable, or a slice of it), or nil when p is not in a
// form the rewrite knows.
func (c *checker) putGet(u *poolUses, p *ast.CallExpr, t types.Type) *poolGet {
	if len(p.Args) != 1 {
		return nil
	}
	arg := ast.Unparen(p.Args[0])
	base := arg
	if s, ok := arg.(*ast.SliceExpr); ok {
		base = ast.Unparen(s.X)
	}
	id, ok := base.(*ast.Ident)
	if !ok {
		return nil
	}
	g := u.byVar[c.pass.TypesInfo.Uses[id]]
	if g == nil || !g.inList || enclosingFunc(u.putCtx[p]) != g.fn || !types.Identical(c.pass.TypesInfo.TypeOf(arg), t) {
		return nil
	}
	if !c.putStmtOK(g, u.putCtx[p], arg != base) {
		return nil
	}
	return g
}

// putStmtOK reports whether the statement that holds a Put of g's
// variable, at the top of ctx, is one the rewrite knows: a deferred Put of
// the variable itself (not a slice of it), assigned nowhere between the
// Get and the defer, or an expression statement in a statement list.
func (c *checker) putStmtOK(g *poolGet, ctx []ast.Node, sliced bool) bool {
	switch st := ctx[0].(type) {
	case *ast.DeferStmt:
		// A later assignment: the deferred Put would see a later value.
		return !sliced && !c.assignedBetween(g.fn, g.v, g.stmt.End(), st.Pos())
	case *ast.ExprStmt:
		_, inList := stmtOf(ctx)
		return inList
	default:
		return false
	}
}

// getEdits returns the edits of the Get g and of its Puts: a Get without
// Puts reads through the pointer; one with Puts keeps the pointer in a new
// variable and each Put stores the value through it and puts the pointer.
func (c *checker) getEdits(g *poolGet, putCtx map[*ast.CallExpr][]ast.Node) []analysis.TextEdit {
	get := c.src(g.assert.X)
	typ := "(*" + c.src(g.assert.Type) + ")"
	if len(g.puts) == 0 {
		return []analysis.TextEdit{{Pos: g.assert.Pos(), End: g.assert.End(), NewText: []byte("*(" + get + "." + typ + ")")}}
	}
	name := g.stmt.Lhs[0].(*ast.Ident).Name
	ptr := freshName(g.fn, name+"p")
	indent := c.indentAt(g.stmt.Pos())
	edits := []analysis.TextEdit{{Pos: g.stmt.Pos(), End: g.stmt.End(),
		NewText: []byte(ptr + " := " + get + "." + typ + "\n" + indent + name + " := *" + ptr)}}
	for _, p := range g.puts {
		st := putCtx[p][0].(ast.Stmt) // checked by putStmtOK: a defer or an expression statement
		edits = append(edits, c.putEdit(p, st, ptr))
	}
	return edits
}

// putEdit returns the edit of the Put p, in the statement st, that puts
// back the pointer ptr: a deferred Put puts ptr itself; any other first
// stores its argument through ptr.
func (c *checker) putEdit(p *ast.CallExpr, st ast.Stmt, ptr string) analysis.TextEdit {
	if _, ok := st.(*ast.DeferStmt); ok {
		return analysis.TextEdit{Pos: p.Args[0].Pos(), End: p.Args[0].End(), NewText: []byte(ptr)}
	}
	pool := c.src(p.Fun)
	return analysis.TextEdit{Pos: st.Pos(), End: st.End(),
		NewText: []byte("*" + ptr + " = " + c.src(p.Args[0]) + "\n" + c.indentAt(st.Pos()) + pool + "(" + ptr + ")")}
}

// getStmt returns the Get whose path (from the call up) is
// pool.Get().(t), alone as a value or defined into a variable; nil for any
// other form.
func (c *checker) getStmt(path []ast.Node, t types.Type) *poolGet {
	if len(path) < 2 {
		return nil
	}
	ta, ok := path[0].(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil || !types.Identical(c.pass.TypesInfo.TypeOf(ta), t) {
		return nil
	}
	if _, ok := path[1].(*ast.ParenExpr); ok {
		return nil
	}
	g := &poolGet{assert: ta, fn: enclosingFunc(path)}
	if g.fn == nil {
		return nil
	}
	if as, ok := path[1].(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			g.stmt, g.v = as, c.pass.TypesInfo.Defs[id]
			_, g.inList = stmtOf(path[1:])
		}
	}
	return g
}

// newEdits returns the edits of the pool's New, in its declaration: a
// function literal that returns one value of type t now returns a pointer
// to it. A pool without New needs none.
func (c *checker) newEdits(decl *ast.ValueSpec, pv *types.Var, t types.Type) ([]analysis.TextEdit, bool) {
	lit, ok := c.poolLit(decl, pv)
	if lit == nil {
		return nil, ok
	}
	var edits []analysis.TextEdit
	for _, el := range lit.Elts {
		e, ok := c.newFieldEdit(el, t)
		if !ok {
			return nil, false
		}
		edits = append(edits, e)
	}
	return edits, true
}

// poolLit returns the composite literal that decl gives pv, sync.Pool{...}
// or &sync.Pool{...}. With no literal it reports whether that is because
// decl gives no values at all (a pool without New: nothing to rewrite)
// rather than a value of another form.
func (c *checker) poolLit(decl *ast.ValueSpec, pv *types.Var) (*ast.CompositeLit, bool) {
	i := -1
	for j, n := range decl.Names {
		if c.pass.TypesInfo.Defs[n] == pv {
			i = j
		}
	}
	if i < 0 || len(decl.Values) == 0 {
		return nil, len(decl.Values) == 0
	}
	if len(decl.Values) != len(decl.Names) {
		return nil, false
	}
	val := ast.Unparen(decl.Values[i])
	if u, ok := val.(*ast.UnaryExpr); ok && u.Op == token.AND {
		val = u.X // var pool = &sync.Pool{...}
	}
	lit, ok := val.(*ast.CompositeLit)
	return lit, ok
}

// newFieldEdit returns the edit of one element el of the pool's literal,
// which must be New: a function literal whose body is one return of a
// value of type t, rewritten to return a pointer to that value. It
// reports false for any other element.
func (c *checker) newFieldEdit(el ast.Expr, t types.Type) (analysis.TextEdit, bool) {
	kv, ok := el.(*ast.KeyValueExpr)
	if !ok {
		return analysis.TextEdit{}, false
	}
	if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "New" {
		return analysis.TextEdit{}, false
	}
	fl, ok := kv.Value.(*ast.FuncLit)
	if !ok || len(fl.Body.List) != 1 {
		return analysis.TextEdit{}, false
	}
	ret, ok := fl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 || !types.Identical(c.pass.TypesInfo.TypeOf(ret.Results[0]), t) {
		return analysis.TextEdit{}, false
	}
	v := freshName(fl, "v")
	sep := "; "
	if c.pass.Fset.Position(fl.Body.Lbrace).Line != c.pass.Fset.Position(ret.Pos()).Line {
		sep = "\n" + c.indentAt(ret.Pos())
	}
	return analysis.TextEdit{Pos: ret.Pos(), End: ret.End(),
		NewText: []byte(v + " := " + c.src(ret.Results[0]) + sep + "return &" + v)}, true
}

// reportFix reports a finding, as report does, with fixes.
func (c *checker) reportFix(pos token.Pos, msg string, related token.Pos, fixes []analysis.SuggestedFix) {
	key := fmt.Sprintf("%d %s", pos, msg)
	if c.seen[key] || !pos.IsValid() {
		return
	}
	c.seen[key] = true
	d := analysis.Diagnostic{Pos: pos, Message: msg, SuggestedFixes: fixes}
	if related.IsValid() {
		d.Related = []analysis.RelatedInformation{{Pos: related, Message: "released here"}}
	}
	c.pass.Report(d)
}
