package main

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Whether a type holds pointers, as far as its source says.
const (
	pointersUnknown = iota
	noPointers
	hasPointers
)

// alloc is an expression of the user's source that allocates: a slice
// made (make, a []E{...} literal, append, a conversion to []byte) or an
// object (new(T), &T{...}). A site of the profile is matched to one of the
// allocs at its line by its sizes, which tells apart two allocations on
// one line.
type alloc struct {
	expr  string // the expression as written, shortened
	what  string // "make", "slice literal", "append growth", "conversion", "new object"
	elem  string // the slice's element type, or the object's type, as the package names it
	slice bool
	ptr   int   // whether elem holds pointers
	size  int64 // the size it allocates, -1 where it varies
}

// checked is a type-checked package, by directory and package name.
type checked struct {
	fset  *token.FileSet
	files map[string]*ast.File // by absolute file name
	src   map[string][]byte
	info  *types.Info
	pkg   *types.Package
}

var (
	checkedMu sync.Mutex
	checkedBy = map[string]*checked{}
)

// check type-checks the package of file with go/types, importing from
// source; what it cannot resolve (an import it cannot find) stays unknown,
// and the rest is still typed. It returns nil where file cannot be parsed.
func check(file string) *checked {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	head, err := parser.ParseFile(token.NewFileSet(), file, src, parser.PackageClauseOnly)
	if err != nil {
		return nil
	}
	dir := filepath.Dir(file)
	key := dir + "\x00" + head.Name.Name
	checkedMu.Lock()
	defer checkedMu.Unlock()
	if c, ok := checkedBy[key]; ok {
		return c
	}
	c := &checked{fset: token.NewFileSet(), files: map[string]*ast.File{}, src: map[string][]byte{}}
	checkedBy[key] = c
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(names)
	var files []*ast.File
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(c.fset, name, b, 0)
		if err != nil || f.Name.Name != head.Name.Name {
			continue
		}
		abs, _ := filepath.Abs(name)
		c.files[abs], c.src[abs] = f, b
		files = append(files, f)
	}
	c.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(c.fset, "gc", exports(dir)), Error: func(error) {}}
	c.pkg, _ = conf.Check(head.Name.Name, c.fset, files, c.info)
	return c
}

// exports returns a lookup of the export data of the packages that the
// package in dir and its tests import, as the go command built them
// (go list -export): importing them is fast where the program was built
// here. An import it cannot find stays unresolved.
func exports(dir string) importer.Lookup {
	files := map[string]string{}
	cmd := exec.Command("go", "list", "-e", "-export", "-test", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".")
	cmd.Dir = dir
	out, _ := cmd.Output()
	for _, l := range strings.Split(string(out), "\n") {
		path, export, ok := strings.Cut(l, "\t")
		path, _, _ = strings.Cut(path, " ") // "p [p.test]"
		if ok && export != "" {
			if _, seen := files[path]; !seen {
				files[path] = export
			}
		}
	}
	return func(path string) (io.ReadCloser, error) {
		if f, ok := files[path]; ok {
			return os.Open(f)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}
}

// lineAllocs lists the allocating expressions that start at line of file,
// in source order; nil where the file cannot be read.
func lineAllocs(file string, line int64) []alloc {
	c := check(file)
	if c == nil {
		return nil
	}
	abs, _ := filepath.Abs(file)
	f := c.files[abs]
	if f == nil {
		return nil
	}
	s := &lineScan{c: c, src: c.src[abs], line: line}
	ast.Inspect(f, s.visit)
	return s.out
}

// lineScan collects the allocs that start at one line of a checked file.
type lineScan struct {
	c    *checked
	src  []byte // the file's source
	line int64
	out  []alloc
}

// lineOf is the line of p.
func (s *lineScan) lineOf(p token.Pos) int64 {
	return int64(s.c.fset.Position(p).Line)
}

// text is n as written, shortened to 40 bytes.
func (s *lineScan) text(n ast.Node) string {
	t := string(s.src[s.c.fset.Position(n.Pos()).Offset:s.c.fset.Position(n.End()).Offset])
	if len(t) > 40 {
		t = t[:37] + "…"
	}
	return t
}

// qual names p as the checked package's source does: nothing for the
// package itself.
func (s *lineScan) qual(p *types.Package) string {
	if p == s.c.pkg {
		return ""
	}
	return p.Name()
}

// add records n as an alloc of t; nothing where t is unknown.
func (s *lineScan) add(n ast.Node, what string, t types.Type, slice bool, size int64) {
	if t == nil {
		return
	}
	a := alloc{expr: s.text(n), what: what, elem: types.TypeString(t, s.qual), slice: slice, ptr: holdsPointers(t, 0), size: size}
	s.out = append(s.out, a)
}

// builtin reports whether e names the builtin function name (or an
// unresolved identifier of that name).
func (s *lineScan) builtin(e ast.Expr, name string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = s.c.info.Uses[id].(*types.Builtin)
	return ok || s.c.info.Uses[id] == nil
}

// visit is the ast.Inspect callback: it descends only into nodes that
// span the line, and records the allocs among those that start on it.
func (s *lineScan) visit(n ast.Node) bool {
	if n == nil {
		return false
	}
	first, last := s.lineOf(n.Pos()), s.lineOf(n.End())
	if first > s.line || last < s.line {
		return first <= s.line
	}
	if first != s.line {
		return true
	}
	switch x := n.(type) {
	case *ast.CallExpr:
		s.call(x)
	case *ast.CompositeLit:
		s.sliceLiteral(x)
	case *ast.UnaryExpr:
		s.addressOf(x)
	}
	return true
}

// call records a call that allocates: make or append of a slice, new, or
// a conversion to a slice type.
func (s *lineScan) call(x *ast.CallExpr) {
	info := s.c.info
	t := info.Types[x].Type
	sl, _ := under(t).(*types.Slice)
	switch {
	case s.builtin(x.Fun, "make") && sl != nil:
		size := int64(-1)
		if n := constInt(info, x.Args[len(x.Args)-1]); n >= 0 && len(x.Args) > 1 {
			size = n * sizeof(sl.Elem())
		}
		s.add(x, "make", sl.Elem(), true, size)
	case s.builtin(x.Fun, "append") && sl != nil:
		short := "append(" + s.text(x.Args[0]) + ", …)"
		s.out = append(s.out, alloc{expr: short, what: "append growth", elem: types.TypeString(sl.Elem(), s.qual), slice: true, ptr: holdsPointers(sl.Elem(), 0), size: -1})
	case s.builtin(x.Fun, "new") && t != nil:
		if p, ok := t.(*types.Pointer); ok {
			s.add(x, "new object", p.Elem(), false, sizeof(p.Elem()))
		}
	case sl != nil && info.Types[x.Fun].IsType():
		s.add(x, "conversion", sl.Elem(), true, -1)
	}
}

// sliceLiteral records a []E{...} literal, sized where it has no keys and
// E's size is known.
func (s *lineScan) sliceLiteral(x *ast.CompositeLit) {
	sl, ok := under(s.c.info.Types[x].Type).(*types.Slice)
	if !ok {
		return
	}
	size := int64(-1)
	if !keyed(x) && sizeof(sl.Elem()) > 0 {
		size = int64(len(x.Elts)) * sizeof(sl.Elem())
	}
	s.add(x, "slice literal", sl.Elem(), true, size)
}

// addressOf records &T{...} of a non-slice type T as a new object.
func (s *lineScan) addressOf(x *ast.UnaryExpr) {
	lit, ok := x.X.(*ast.CompositeLit)
	if !ok || x.Op != token.AND {
		return
	}
	t := s.c.info.Types[lit].Type
	if t == nil {
		return
	}
	if _, isSlice := under(t).(*types.Slice); !isSlice {
		s.add(x, "new object", t, false, sizeof(t))
	}
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// keyed reports whether a composite literal has keys, which make its
// length other than its number of elements.
func keyed(x *ast.CompositeLit) bool {
	for _, e := range x.Elts {
		if _, ok := e.(*ast.KeyValueExpr); ok {
			return true
		}
	}
	return false
}

// constInt is the value of a constant integer expression, -1 where it is
// not one.
func constInt(info *types.Info, e ast.Expr) int64 {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return -1
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || n < 0 {
		return -1
	}
	return n
}

// gcSizes are the sizes of the platform advise runs on, which is where the
// profile was taken in the common case (amd64 where Go does not know it).
var gcSizes = cmp.Or(types.SizesFor("gc", runtime.GOARCH), types.SizesFor("gc", "amd64"))

// sizeof is t's size on gcSizes' platform, -1 where t is not fully known.
func sizeof(t types.Type) (n int64) {
	if !complete(t, 0) {
		return -1
	}
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	return gcSizes.Sizeof(t)
}

// complete reports whether t has no invalid part.
func complete(t types.Type, depth int) bool {
	if depth > 16 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.Invalid
	case *types.Array:
		return complete(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if !complete(u.Field(i).Type(), depth+1) {
				return false
			}
		}
	}
	return true
}

// holdsPointers says whether values of t hold pointers: strings, slices,
// maps, channels, funcs, interfaces and pointers do, as do arrays and
// structs of them; a type go/types could not resolve is unknown.
func holdsPointers(t types.Type, depth int) int {
	if depth > 16 || t == nil {
		return pointersUnknown
	}
	if _, ok := t.(*types.TypeParam); ok {
		return pointersUnknown
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.Invalid:
			return pointersUnknown
		case u.Info()&types.IsString != 0, u.Kind() == types.UnsafePointer:
			return hasPointers
		}
		return noPointers
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return hasPointers
	case *types.Array:
		if u.Len() == 0 {
			return noPointers
		}
		return holdsPointers(u.Elem(), depth+1)
	case *types.Struct:
		result := noPointers
		for i := range u.NumFields() {
			switch holdsPointers(u.Field(i).Type(), depth+1) {
			case hasPointers:
				return hasPointers
			case pointersUnknown:
				result = pointersUnknown
			}
		}
		return result
	}
	return pointersUnknown
}

// fits reports whether an allocation of want bytes is what the profile
// records as got bytes: the allocator rounds a request up to its size
// class, by at most 1/8 of it above 128 B and 16 B below.
func fits(want int64, got float64) bool {
	w := float64(want)
	return w <= got && got-w < max(16, w/8)
}

// matchAlloc picks the alloc at the site's line that the site is: by its
// sizes (one fixed size for a literal, a new or a make of constant length;
// varying ones for append growth and a make of variable length). It
// returns the one that matches, or where several do, those; none where
// the line shows no allocation of the site's sizes.
func (s *site) matchAlloc() []alloc {
	all := lineAllocs(s.File, s.Line)
	var fixed, varying []alloc
	for _, a := range all {
		switch {
		case a.size >= 0 && s.Sizes == 1 && fits(a.size, s.MaxSize):
			fixed = append(fixed, a)
		case a.size < 0:
			varying = append(varying, a)
		}
	}
	if len(fixed) > 0 {
		return fixed
	}
	return varying // of one size here, or of several
}

// names lists the allocs' element types, as "[]string or []tagged".
func names(as []alloc) string {
	var l []string
	for _, a := range as {
		n := a.elem
		if a.slice {
			n = "[]" + n
		}
		if !strings.Contains(strings.Join(l, "\x00"), n) {
			l = append(l, n)
		}
	}
	return strings.Join(l, " or ")
}
