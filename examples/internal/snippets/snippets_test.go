package snippets

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// docs are the Markdown files whose Go snippets must compile, relative to
// the repository root.
var docs = []string{"README.md", "MIGRATING.md", "docs/DEBUG.md"}

// TestSnippetsCompile builds every ```go block of the docs, as a reader
// would paste it: a block with a top-level func or type is a file of its
// own; any other block is the body of a function whose parameters are the
// variables it uses without declaring, given by an HTML comment on the line
// before the block (<!-- snippet: func(w io.Writer) -->). Imports are added
// for the package names the block uses. Compiler errors point at the lines
// of the Markdown file.
func TestSnippetsCompile(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("runs the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go not found: %v", err)
	}
	modDir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(modDir)
	tmp := t.TempDir()
	overlay := map[string]string{}
	var pkgs []string
	for _, doc := range docs {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		blocks := extract(doc, string(text))
		if len(blocks) == 0 {
			t.Errorf("%s: no ```go blocks found", doc)
		}
		for _, b := range blocks {
			src, err := b.source()
			if err != nil {
				t.Errorf("%s:%d: %v", doc, b.line, err)
				continue
			}
			name := fmt.Sprintf("%s_l%d", strings.ToLower(strings.ReplaceAll(strings.TrimSuffix(doc, ".md"), "/", "_")), b.line)
			file := filepath.Join(tmp, name+".go")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay[filepath.Join(modDir, "internal", "snippets", "gen", name, "snippet.go")] = file
			pkgs = append(pkgs, "./internal/snippets/gen/"+name)
		}
	}
	data, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", append([]string{"build", "-overlay", ov}, pkgs...)...)
	cmd.Dir = modDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%d snippets, go build: %v\n%s", len(pkgs), err, out)
	}
}

// A block is one ```go block of a Markdown file.
type block struct {
	doc    string
	line   int    // line of the block's first line of code, from 1
	params string // from <!-- snippet: func(PARAMS) -->
	code   string
}

var paramsRE = regexp.MustCompile(`^<!-- snippet: func\((.*)\) -->$`)

func extract(doc, text string) []block {
	var blocks []block
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		b := block{doc: doc, line: i + 2}
		if i > 0 {
			if m := paramsRE.FindStringSubmatch(strings.TrimSpace(lines[i-1])); m != nil {
				b.params = m[1]
			}
		}
		var code []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			code = append(code, lines[i])
		}
		b.code = strings.Join(code, "\n") + "\n"
		blocks = append(blocks, b)
	}
	return blocks
}

// imports maps the package names snippets use to their import paths.
var imports = map[string]string{
	"bufio": "bufio", "bytes": "bytes", "context": "context", "errors": "errors", "fmt": "fmt",
	"io": "io", "log": "log", "net": "net", "os": "os", "strconv": "strconv", "strings": "strings",
	"sync": "sync", "time": "time", "slices": "slices", "atomic": "sync/atomic",
	"http": "net/http", "json": "encoding/json", "gzip": "compress/gzip",
	"reuse":      "github.com/reuse-go/reuse",
	"bytebuf":    "github.com/reuse-go/reuse/bytebuf",
	"bufiopool":  "github.com/reuse-go/reuse/bufiopool",
	"flatepool":  "github.com/reuse-go/reuse/flatepool",
	"gzpool":     "github.com/reuse-go/reuse/gzpool",
	"jsonpool":   "github.com/reuse-go/reuse/jsonpool",
	"zlibpool":   "github.com/reuse-go/reuse/zlibpool",
	"reusetest":  "github.com/reuse-go/reuse/reusetest",
	"reuseprom":  "github.com/reuse-go/reuse/reuseprom",
	"prometheus": "github.com/prometheus/client_golang/prometheus",
	"promhttp":   "github.com/prometheus/client_golang/prometheus/promhttp",
}

var (
	selectorRE = regexp.MustCompile(`\b([a-z][a-z0-9]*)\.[A-Za-z_]`)
	importRE   = regexp.MustCompile(`^import\s+("[^"]+")\s*$`)
	fileRE     = regexp.MustCompile(`(?m)^(func|type|package) `)
)

// source returns the block as a Go file of package snippet.
func (b block) source() (string, error) {
	code := b.code
	// Take out import lines (keeping the line count with blank lines).
	var own []string
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if m := importRE.FindStringSubmatch(l); m != nil {
			own = append(own, m[1])
			lines[i] = ""
		}
	}
	code = strings.Join(lines, "\n")
	set := map[string]bool{}
	for _, p := range own {
		set[p] = true
	}
	for _, m := range selectorRE.FindAllStringSubmatch(stripComments(code)+" "+b.params, -1) {
		if p, ok := imports[m[1]]; ok {
			set[`"`+p+`"`] = true
		}
	}
	var imps []string
	for p := range set {
		imps = append(imps, p)
	}
	sort.Strings(imps)
	var head strings.Builder
	head.WriteString("package snippet\n\n")
	if len(imps) > 0 {
		head.WriteString("import (\n\t" + strings.Join(imps, "\n\t") + "\n)\n\n")
	}
	if fileRE.MatchString(code) {
		if b.params != "" {
			return "", fmt.Errorf("a block with top-level declarations takes no <!-- snippet: func(...) --> parameters")
		}
		code = regexp.MustCompile(`(?m)^package .*$`).ReplaceAllString(code, "")
		return head.String() + fmt.Sprintf("//line %s:%d\n", b.doc, b.line) + code, nil
	}
	fn := "func _(" + b.params + ") {\n"
	src := head.String() + fn + fmt.Sprintf("//line %s:%d\n", b.doc, b.line) + code + "}\n"
	return useLocals(src)
}

// stripComments drops // comments, so that prose in them (".Reset") does not
// import anything.
func stripComments(code string) string {
	var out []string
	for _, l := range strings.Split(code, "\n") {
		for i := 0; i+1 < len(l); i++ {
			if l[i] == '/' && l[i+1] == '/' && strings.Count(l[:i], `"`)%2 == 0 {
				l = l[:i]
				break
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// useLocals adds "_ = x" after each declaration of a local variable x, on
// the same line, so that a snippet that declares a value it does not go on
// to use (the reader will) still compiles. Line numbers are kept.
func useLocals(src string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	type insert struct {
		off  int
		text string
	}
	var ins []insert
	uses := func(names []string) string {
		var s []string
		for _, n := range names {
			if n != "_" {
				s = append(s, "_ = "+n)
			}
		}
		return strings.Join(s, "; ")
	}
	after := func(n ast.Node, names []string) {
		if u := uses(names); u != "" {
			ins = append(ins, insert{fset.Position(n.End()).Offset, "; " + u})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.BlockStmt:
			for _, st := range s.List {
				switch d := st.(type) {
				case *ast.AssignStmt:
					if d.Tok == token.DEFINE {
						after(d, identNames(d.Lhs))
					}
				case *ast.DeclStmt:
					if g, ok := d.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
						var names []string
						for _, sp := range g.Specs {
							for _, id := range sp.(*ast.ValueSpec).Names {
								names = append(names, id.Name)
							}
						}
						after(d, names)
					}
				}
			}
		case *ast.IfStmt:
			if a, ok := s.Init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
				if u := uses(identNames(a.Lhs)); u != "" {
					ins = append(ins, insert{fset.Position(s.Body.Lbrace).Offset + 1, " " + u + ";"})
				}
			}
		}
		return true
	})
	slices.SortFunc(ins, func(a, b insert) int { return b.off - a.off })
	for _, in := range ins {
		src = src[:in.off] + in.text + src[in.off:]
	}
	return src, nil
}

func identNames(exprs []ast.Expr) []string {
	var names []string
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); ok {
			names = append(names, id.Name)
		}
	}
	return names
}
