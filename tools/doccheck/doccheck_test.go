// Package doccheck holds the tests that keep the module's documentation
// true: doc comments of exported identifiers state contracts (no
// measurements, no unexported names), and the figures and links of the
// README and the package docs match the code.
package doccheck

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/reuse-go/reuse/internal/race"
)

// root is the repository root, two levels above this package.
const root = "../.."

// skipWasm skips the tests that read the repository under js/wasm and
// wasip1, and under the race detector, which makes them ten times slower
// and has nothing to find in them; the native run checks the same files.
func skipWasm(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || race.Enabled {
		t.Skip("reads the repository; the native run without -race checks it")
	}
}

// contractPackages are the directories, relative to the root, whose
// exported doc comments must state contracts only: every package a user
// imports, nested modules included.
var contractPackages = []string{
	".",
	"bufiopool",
	"bytebuf",
	"codec",
	"flatepool",
	"gzpool",
	"httpcompress",
	"httpcompress/khttp",
	"jsonpool",
	"kgzip",
	"reuseprom",
	"reusetest",
	"zlibpool",
}

// allowed lists packages whose doc comments still break the rule, while
// their owners rewrite them. TODO: empty it.
var allowed = map[string]string{}

// measurement matches what belongs in the benchmarks docs, not in a
// contract: instruction counts, cycles, timings, throughputs, ratios and
// references to named benchmarks or profiles.
var measurement = regexp.MustCompile(`(?i)\b(instructions?|cycles|callgrind|cachegrind|perf stat)\b` +
	`|\b\d+(\.\d+)?\s?(ns/op|B/op|allocs/op)` + // a benchmark result
	`|\b\d+(\.\d+)?\s?(ns|µs|us|ms)\b` + // a duration
	`|\b\d+(\.\d+)?\s?(MB|GB|MiB|GiB)/s\b` + // a throughput
	`|\b\d+(\.\d+)?x\b` + // a ratio, 1.15x
	`|\b\d+(\.\d+)? times (faster|slower|as fast|the speed|the cost)` +
	`|(?-i:\bBenchmark[A-Z]\w*)` + // a named benchmark
	`|\bpaired timings?\b|\breference machine\b`)

// internalPath matches a reference to an internal package, which a user
// cannot import or read with go doc.
var internalPath = regexp.MustCompile(`\binternal/\w+`)

// word matches an identifier, possibly qualified (x.y).
var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?`)

// pkg is one parsed package of contractPackages.
type pkg struct {
	dir        string
	doc        *doc.Package
	unexported map[string]bool // names a user cannot see
}

// loadPkg parses the non-test Go files of dir (all build tags: each file
// is documentation somebody may read).
func loadPkg(t *testing.T, dir string) *pkg {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name == "main" {
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no Go files", dir)
	}
	p := &pkg{dir: dir, unexported: unexportedNames(files)}
	p.doc, err = doc.NewFromFiles(fset, files, "example.com/"+dir, doc.PreserveAST)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// unexportedNames returns the names a reader of go doc cannot look up:
// the package's unexported functions, methods, types, variables, constants
// and struct fields, and the names of the internal packages it imports.
// All-lowercase names that are also plain words (seal, take) are left out
// unless they are written as a call or a selector, so that English prose is
// not mistaken for code.
func unexportedNames(files []*ast.File) map[string]bool {
	names := map[string]bool{}
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" && !id.IsExported() {
			names[id.Name] = true
		}
	}
	for _, f := range files {
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if strings.Contains(path, "/internal/") {
				if imp.Name != nil {
					add(imp.Name)
				} else {
					names[path[strings.LastIndex(path, "/")+1:]] = true
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				add(n.Name)
				return false
			case *ast.TypeSpec:
				add(n.Name)
			case *ast.ValueSpec:
				for _, id := range n.Names {
					add(id)
				}
			case *ast.Field:
				for _, id := range n.Names {
					add(id)
				}
			}
			return true
		})
	}
	return names
}

// camel says whether a name looks like code rather than a word: it has an
// upper-case letter, a digit or an underscore after its first letter.
func camel(name string) bool {
	for _, r := range name[1:] {
		if unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_' {
			return true
		}
	}
	return false
}

// problems returns what is wrong with one doc comment. params are the
// parameter names of the function it documents, which go doc shows.
func (p *pkg) problems(text string, params map[string]bool) []string {
	var out []string
	// Code blocks (indented lines) are examples, not prose.
	var prose []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "    ") {
			prose = append(prose, line)
		}
	}
	body := strings.Join(prose, "\n")
	for _, loc := range measurement.FindAllStringIndex(body, -1) {
		m := body[loc[0]:loc[1]]
		if strings.HasSuffix(m, "x") && strings.HasSuffix(strings.TrimRight(body[:loc[0]], " ="), "-benchtime") {
			continue // a flag's value, -benchtime 300x
		}
		out = append(out, fmt.Sprintf("measurement %q", m))
	}
	for _, m := range internalPath.FindAllString(body, -1) {
		out = append(out, fmt.Sprintf("internal package %q", m))
	}
	for _, loc := range word.FindAllStringIndex(body, -1) {
		w := body[loc[0]:loc[1]]
		first, rest, qualified := strings.Cut(w, ".")
		name := first
		if qualified {
			if importedInternal(first) {
				out = append(out, fmt.Sprintf("internal package %q", w))
				continue
			}
			name = rest // T.method or pkg.Name: only the part after the dot
		}
		if !p.unexported[name] || params[name] && !qualified {
			continue
		}
		asCode := qualified || camel(name) || strings.HasPrefix(body[loc[1]:], "(") ||
			(loc[0] > 0 && body[loc[0]-1] == '.')
		if asCode || importedInternal(name) {
			out = append(out, fmt.Sprintf("unexported name %q", w))
		}
	}
	return out
}

// importedInternal says whether name is one of the module's internal
// packages, which are code wherever they are named.
func importedInternal(name string) bool {
	switch name {
	case "perp", "sizeclass", "cputime", "codectest":
		return true
	}
	return false
}

// comment is one exported identifier's doc comment, and the parameter
// names of its signature.
type comment struct {
	text   string
	params map[string]bool
}

// exportedDocs returns every exported identifier's doc comment in p, keyed
// by the name go doc prints it under.
func (p *pkg) exportedDocs() map[string]comment {
	out := map[string]comment{}
	addValues := func(vs []*doc.Value) {
		for _, v := range vs {
			out[strings.Join(v.Names, ", ")] = comment{text: v.Doc}
			addFieldDocs(out, "", v.Decl)
		}
	}
	addFuncs := func(recv string, fs []*doc.Func) {
		for _, f := range fs {
			out[recv+f.Name] = comment{f.Doc, paramNames(f.Decl.Type)}
		}
	}
	addValues(p.doc.Consts)
	addValues(p.doc.Vars)
	addFuncs("", p.doc.Funcs)
	for _, typ := range p.doc.Types {
		out[typ.Name] = comment{text: typ.Doc}
		addFieldDocs(out, typ.Name+".", typ.Decl)
		addValues(typ.Consts)
		addValues(typ.Vars)
		addFuncs("", typ.Funcs)
		addFuncs(typ.Name+".", typ.Methods)
	}
	return out
}

// paramNames returns the names of a function's parameters, results and
// type parameters.
func paramNames(ft *ast.FuncType) map[string]bool {
	names := map[string]bool{}
	for _, fl := range []*ast.FieldList{ft.TypeParams, ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				names[id.Name] = true
			}
		}
	}
	return names
}

// addFieldDocs adds the doc comments of the exported fields and interface
// methods declared in decl, which go doc prints with their type.
func addFieldDocs(out map[string]comment, prefix string, decl *ast.GenDecl) {
	for _, spec := range decl.Specs {
		ts, ok := spec.(*ast.TypeSpec)
		if !ok {
			continue
		}
		var fields *ast.FieldList
		switch t := ts.Type.(type) {
		case *ast.StructType:
			fields = t.Fields
		case *ast.InterfaceType:
			fields = t.Methods
		}
		if fields == nil {
			continue
		}
		for _, f := range fields.List {
			for _, id := range f.Names {
				if id.IsExported() {
					c := comment{text: f.Doc.Text() + f.Comment.Text()}
					if ft, ok := f.Type.(*ast.FuncType); ok {
						c.params = paramNames(ft)
					}
					out[prefix+id.Name] = c
				}
			}
		}
	}
}

// TestDocsStateContracts checks every exported identifier's doc comment in
// contractPackages, as go doc prints it: no measurement and no name a user
// cannot look up. Measurements belong in benchmarks/README.md and the
// dated files of benchmarks/results; a doc comment may link there.
func TestDocsStateContracts(t *testing.T) {
	skipWasm(t)
	for _, dir := range contractPackages {
		p := loadPkg(t, dir)
		docs := p.exportedDocs()
		var names []string
		for name := range docs {
			names = append(names, name)
		}
		sort.Strings(names)
		var bad []string
		for _, name := range names {
			for _, pr := range p.problems(docs[name].text, docs[name].params) {
				bad = append(bad, fmt.Sprintf("%s: %s: %s", dir, name, pr))
			}
		}
		for _, pr := range p.problems(p.doc.Doc, nil) {
			if !strings.HasPrefix(pr, "measurement") { // a package doc may give measured costs
				bad = append(bad, fmt.Sprintf("%s: package doc: %s", dir, pr))
			}
		}
		if why, ok := allowed[dir]; ok {
			if len(bad) == 0 {
				t.Errorf("%s is allowed to fail (%s) but passes: take it off the list", dir, why)
			} else {
				t.Logf("%s: %d problems, allowed for now: %s", dir, len(bad), why)
			}
			continue
		}
		for _, b := range bad {
			t.Error(b)
		}
	}
}
