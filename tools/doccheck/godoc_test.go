package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNestedModuleCount checks the root package doc's count of nested
// modules against the go.mod files (testdata aside): it said "Three nested
// modules" while there were eight.
func TestNestedModuleCount(t *testing.T) {
	_, modules := packageDirs(t)
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	m := find(t, "doc.go", `(?i)\b(\w+) nested modules\b`)
	if len(modules) >= len(words) || strings.ToLower(m[1]) != words[len(modules)] {
		t.Errorf("doc.go says %q nested modules; there are %d: %v", m[1], len(modules), modules)
	}
}

// TestExportedVarsReadPlain checks that go doc shows what each exported
// variable is without naming an internal package its reader cannot open
// as its value: a variable set from one declares its type. go doc reuse
// showed "var ErrTooLarge = toolarge.Err".
func TestExportedVarsReadPlain(t *testing.T) {
	skipWasm(t)
	pkgs, _ := packageDirs(t)
	seen := 0
	for _, dir := range pkgs {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.Join(dir, name)
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, path), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			internal := map[string]bool{} // the names of the file's internal imports
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if strings.Contains(p, "/internal/") {
					n := p[strings.LastIndexByte(p, '/')+1:]
					if imp.Name != nil {
						n = imp.Name.Name
					}
					internal[n] = true
				}
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					if vs.Type != nil || !anyExported(vs.Names) {
						continue
					}
					seen++
					for _, v := range vs.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							if sel, ok := n.(*ast.SelectorExpr); ok {
								if x, ok := sel.X.(*ast.Ident); ok && internal[x.Name] {
									t.Errorf("%s: exported var %s = %s.%s...: go doc shows an internal package; declare its type",
										path, vs.Names[0].Name, x.Name, sel.Sel.Name)
								}
							}
							return true
						})
					}
				}
			}
		}
	}
	if seen < 10 {
		t.Errorf("found %d exported untyped variables, want at least 10: the walk misses them", seen)
	}
}

func anyExported(names []*ast.Ident) bool {
	for _, n := range names {
		if n.IsExported() {
			return true
		}
	}
	return false
}
