package perp

// The Pin/Unpin check: every path from a Pin reaches exactly one Unpin.
//
// Pin leaves the goroutine unpreemptible until Unpin. An Unpin missed on a
// rare early return leaves it pinned to its P, and the program hangs later,
// far from the mistake; a second Unpin corrupts the runtime's count. The
// sites (reuse.Pool, reuse.Slices, bytebuf and their tests) call Unpin by hand
// on each path, without defer, because a deferred call costs more than the
// pinned section itself. TestPinUnpin walks every function of the repository
// that calls Pin or Unpin, path by path over its statements, and reports:
//
//   - a return, a panic or the end of the function while pinned;
//   - an Unpin on a path that is not pinned (a second Unpin);
//   - a Pin while pinned;
//   - an Unpin after a deferred one;
//   - a defer or go of Pin or Unpin other than a defer of Unpin in the
//     function's outermost block while pinned, or a goto, in such a
//     function, which the walk does not follow (write the Unpin out).
//
// The walk ignores conditions: it takes both arms of every if and every case
// of every switch, and runs loop bodies until the pinned state at their head
// settles. That is exact for this property, because the pinned state depends
// only on the path. TestPinUnpinPlanted runs it over
// testdata/pincheck/planted.go, whose functions hold one planted mistake each
// (and some correct shapes that must not be reported).

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/internal/race"
)

const perpPath = "github.com/reuse-go/reuse/internal/perp"

// pinState is the set of states a point of a function can be reached in.
type pinState uint8

const (
	unpinned pinState = 1 << iota
	pinned
)

// pinDiag is one mistake found.
type pinDiag struct {
	pos token.Position
	msg string
}

func (d pinDiag) String() string { return fmt.Sprintf("%s:%d: %s", d.pos.Filename, d.pos.Line, d.msg) }

// pinChecker checks the files added to it.
type pinChecker struct {
	fset  *token.FileSet
	diags map[pinDiag]bool
	sites int // Pin calls seen
	funcs int // functions walked
}

func newPinChecker() *pinChecker {
	return &pinChecker{fset: token.NewFileSet(), diags: map[pinDiag]bool{}}
}

// checkFile parses and checks one file. inPerp says the file belongs to
// package perp itself, where Pin and Unpin are called unqualified.
func (c *pinChecker) checkFile(path string, inPerp bool) error {
	f, err := parser.ParseFile(c.fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == perpPath {
			name := "perp"
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = true
		}
	}
	inPerp = inPerp && f.Name.Name == "perp"
	if len(names) == 0 && !inPerp {
		return nil
	}
	w := &pinWalker{c: c, names: names, inPerp: inPerp}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				w.function(n.Body)
			}
		case *ast.FuncLit:
			w.function(n.Body)
		}
		return true
	})
	return nil
}

// sorted returns the diagnostics in file and line order.
func (c *pinChecker) sorted() []pinDiag {
	var ds []pinDiag
	for d := range c.diags {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool {
		a, b := ds[i].pos, ds[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return ds[i].msg < ds[j].msg
	})
	return ds
}

// pinWalker walks the functions of one file.
type pinWalker struct {
	c      *pinChecker
	names  map[string]bool // local names of package perp
	inPerp bool
	// targets are the enclosing statements a break or continue may leave,
	// innermost last.
	targets []*pinTarget
	// top is the function's outermost statement list, where a defer of
	// Unpin right after Pin is followed; deferred says the walk passed one.
	top      map[ast.Stmt]bool
	deferred bool
}

// pinTarget collects the states that leave a loop, switch or select by
// break, or go round a loop by continue.
type pinTarget struct {
	label       string
	loop        bool
	brk, contin pinState
}

func (w *pinWalker) report(pos token.Pos, format string, args ...any) {
	w.c.diags[pinDiag{w.c.fset.Position(pos), fmt.Sprintf(format, args...)}] = true
}

// pinCall says whether n is a call of Pin or of Unpin.
func (w *pinWalker) pinCall(n ast.Node) (pin, unpin bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return false, false
	}
	var name string
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if !w.inPerp {
			return false, false
		}
		name = fn.Name
	case *ast.SelectorExpr:
		x, ok := fn.X.(*ast.Ident)
		if !ok || !w.names[x.Name] {
			return false, false
		}
		name = fn.Sel.Name
	default:
		return false, false
	}
	return name == "Pin", name == "Unpin"
}

// uses says whether body calls Pin or Unpin outside nested function literals.
func (w *pinWalker) uses(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit && n != body {
			return false
		}
		if pin, unpin := w.pinCall(n); pin || unpin {
			found = true
		}
		return !found
	})
	return found
}

// function walks one function body that calls Pin or Unpin.
func (w *pinWalker) function(body *ast.BlockStmt) {
	if !w.uses(body) {
		return
	}
	w.c.funcs++
	saved, savedTop, savedDeferred := w.targets, w.top, w.deferred
	w.targets, w.top, w.deferred = nil, map[ast.Stmt]bool{}, false
	for _, s := range body.List {
		w.top[s] = true
	}
	if out := w.block(body.List, unpinned); out&pinned != 0 && !w.deferred {
		w.report(body.Rbrace, "function ends while pinned: Unpin missing on a path")
	}
	w.targets, w.top, w.deferred = saved, savedTop, savedDeferred
}

// expr applies the Pin and Unpin calls of n, in evaluation order, to in.
// It does not enter function literals: they are functions of their own.
func (w *pinWalker) expr(n ast.Node, in pinState) pinState {
	if n == nil || in == 0 {
		return in
	}
	st := in
	ast.Inspect(n, func(m ast.Node) bool {
		if _, lit := m.(*ast.FuncLit); lit {
			return false
		}
		pin, unpin := w.pinCall(m)
		switch {
		case pin:
			w.c.sites++
			if st&pinned != 0 {
				w.report(m.Pos(), "Pin while pinned")
			}
			st = pinned
		case unpin && w.deferred:
			w.report(m.Pos(), "Unpin after a deferred Unpin")
		case unpin:
			if st&unpinned != 0 {
				w.report(m.Pos(), "Unpin on a path that is not pinned: a second Unpin, or one without Pin")
			}
			st = unpinned
		}
		return true
	})
	return st
}

// block walks a statement list and returns the states that fall out of it.
func (w *pinWalker) block(list []ast.Stmt, in pinState) pinState {
	st := in
	for _, s := range list {
		st = w.stmt(s, st, "")
	}
	return st
}

// stmt walks one statement from the states in and returns the states in
// which control falls through to the next statement (0 where it never does).
// label is the statement's label, if any.
func (w *pinWalker) stmt(s ast.Stmt, in pinState, label string) pinState {
	if s == nil || in == 0 {
		return in
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		return w.block(s.List, in)
	case *ast.LabeledStmt:
		return w.stmt(s.Stmt, in, s.Label.Name)
	case *ast.ExprStmt:
		return w.exprStmt(s, in)
	case *ast.ReturnStmt:
		st := in
		for _, r := range s.Results {
			st = w.expr(r, st)
		}
		if st&pinned != 0 && !w.deferred {
			w.report(s.Pos(), "return while pinned: Unpin missing on this path")
		}
		return 0
	case *ast.DeferStmt, *ast.GoStmt:
		var call *ast.CallExpr
		if d, ok := s.(*ast.DeferStmt); ok {
			call = d.Call
		} else {
			call = s.(*ast.GoStmt).Call
		}
		if pin, unpin := w.pinCall(call); pin || unpin {
			// The one form followed: Pin, then at once, in the function's
			// outermost block, defer Unpin.
			if _, isDefer := s.(*ast.DeferStmt); isDefer && unpin && in == pinned && w.top[s] && !w.deferred {
				w.deferred = true
				return in
			}
			w.report(s.Pos(), "defer or go of Pin or Unpin outside the form Pin(); defer Unpin() in the function's outermost block: the check does not follow it")
			return in
		}
		st := in
		for _, a := range call.Args {
			st = w.expr(a, st)
		}
		return w.expr(call.Fun, st)
	case *ast.IfStmt:
		st := w.stmt(s.Init, in, "")
		st = w.expr(s.Cond, st)
		out := w.block(s.Body.List, st)
		if s.Else != nil {
			return out | w.stmt(s.Else, st, "")
		}
		return out | st
	case *ast.ForStmt:
		return w.forStmt(s, in, label)
	case *ast.RangeStmt:
		return w.rangeStmt(s, in, label)
	case *ast.SwitchStmt:
		st := w.stmt(s.Init, in, "")
		st = w.expr(s.Tag, st)
		return w.clauses(s.Body.List, st, label, false)
	case *ast.TypeSwitchStmt:
		st := w.stmt(s.Init, in, "")
		st = w.stmt(s.Assign, st, "")
		return w.clauses(s.Body.List, st, label, false)
	case *ast.SelectStmt:
		return w.clauses(s.Body.List, in, label, true)
	case *ast.BranchStmt:
		return w.branch(s, in)
	default:
		// Assignments, declarations, sends, inc/dec: their expressions.
		return w.expr(s, in)
	}
}

// exprStmt walks an expression statement; a call of panic ends the path.
func (w *pinWalker) exprStmt(s *ast.ExprStmt, in pinState) pinState {
	st := w.expr(s.X, in)
	if call, ok := s.X.(*ast.CallExpr); ok {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
			if st&pinned != 0 && !w.deferred {
				w.report(s.Pos(), "panic while pinned: Unpin missing on this path")
			}
			return 0
		}
	}
	return st
}

// target returns the statement a break or continue with this label leaves.
func (w *pinWalker) target(label *ast.Ident, loopOnly bool) *pinTarget {
	for i := len(w.targets) - 1; i >= 0; i-- {
		t := w.targets[i]
		if label != nil && t.label == label.Name || label == nil && (t.loop || !loopOnly) {
			return t
		}
	}
	return nil
}

func (w *pinWalker) branch(s *ast.BranchStmt, in pinState) pinState {
	switch s.Tok {
	case token.BREAK:
		if t := w.target(s.Label, false); t != nil {
			t.brk |= in
		}
		return 0
	case token.CONTINUE:
		if t := w.target(s.Label, true); t != nil {
			t.contin |= in
		}
		return 0
	case token.GOTO:
		w.report(s.Pos(), "goto: the check does not follow it; call Unpin on each path")
		return 0
	}
	return in // fallthrough: handled by clauses
}

func (w *pinWalker) push(label string, loop bool) *pinTarget {
	t := &pinTarget{label: label, loop: loop}
	w.targets = append(w.targets, t)
	return t
}

func (w *pinWalker) pop() { w.targets = w.targets[:len(w.targets)-1] }

// forStmt runs the loop body until the states at the loop's head settle.
func (w *pinWalker) forStmt(s *ast.ForStmt, in pinState, label string) pinState {
	head := w.stmt(s.Init, in, "")
	t := w.push(label, true)
	defer w.pop()
	for {
		cond := w.expr(s.Cond, head)
		t.contin = 0
		out := w.block(s.Body.List, cond)
		next := head | w.stmt(s.Post, out|t.contin, "")
		if next == head {
			if s.Cond == nil {
				return t.brk
			}
			return cond | t.brk
		}
		head = next
	}
}

// rangeStmt is forStmt for a range loop, whose operand is evaluated once.
func (w *pinWalker) rangeStmt(s *ast.RangeStmt, in pinState, label string) pinState {
	head := w.expr(s.X, in)
	t := w.push(label, true)
	defer w.pop()
	for {
		t.contin = 0
		out := w.block(s.Body.List, head)
		next := head | out | t.contin
		if next == head {
			return head | t.brk
		}
		head = next
	}
}

// clauses walks the cases of a switch or select from the states in.
func (w *pinWalker) clauses(list []ast.Stmt, in pinState, label string, isSelect bool) pinState {
	t := w.push(label, false)
	defer w.pop()
	var out, through pinState
	hasDefault := false
	for _, c := range list {
		st := in
		var body []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			for _, e := range c.List {
				st = w.expr(e, st)
			}
			body = c.Body
		case *ast.CommClause:
			hasDefault = hasDefault || c.Comm == nil
			st = w.stmt(c.Comm, st, "")
			body = c.Body
		}
		st = w.block(body, st|through)
		through = 0
		if n := len(body); n > 0 {
			if b, ok := body[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				through = st
				continue
			}
		}
		out |= st
	}
	if !hasDefault && !isSelect {
		out |= in
	}
	return out | t.brk
}

// repoRoot is the root of the repository, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root: %v", err)
	}
	return root
}

// TestPinUnpin checks every Go file of the repository, every module and
// test files included, except testdata.
func TestPinUnpin(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || race.Enabled {
		t.Skip("reads the whole repository; the native run without -race checks it")
	}
	root := repoRoot(t)
	c := newPinChecker()
	perpDir := filepath.Join(root, "internal", "perp")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return c.checkFile(path, filepath.Dir(path) == perpDir)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.sorted() {
		rel, _ := filepath.Rel(root, d.pos.Filename)
		t.Errorf("%s:%d: %s", rel, d.pos.Line, d.msg)
	}
	t.Logf("%d Pin calls in %d functions checked", c.sites, c.funcs)
	// reuse.Pool alone has six: a walk that finds fewer saw nothing.
	if c.sites < 6 {
		t.Errorf("found %d Pin calls in the repository, want at least 6: the walk misses the sites", c.sites)
	}
}

var wantRE = regexp.MustCompile(`// want "([^"]+)"`)

// TestPinUnpinPlanted runs the check over planted mistakes: each line
// marked // want "text" must be reported with a message containing text,
// and nothing else may be.
func TestPinUnpinPlanted(t *testing.T) {
	path := filepath.Join("testdata", "pincheck", "planted.go")
	c := newPinChecker()
	if err := c.checkFile(path, false); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			want[i+1] = m[1]
		}
	}
	if len(want) < 8 {
		t.Fatalf("%s plants %d mistakes, want at least 8", path, len(want))
	}
	got := map[int]bool{}
	for _, d := range c.sorted() {
		w, ok := want[d.pos.Line]
		switch {
		case !ok:
			t.Errorf("unexpected: %s", d)
		case !strings.Contains(d.msg, w):
			t.Errorf("line %d: got %q, want a message containing %q", d.pos.Line, d.msg, w)
		}
		got[d.pos.Line] = true
	}
	for line, w := range want {
		if !got[line] {
			t.Errorf("%s:%d: planted mistake not reported (want %q)", path, line, w)
		}
	}
}
