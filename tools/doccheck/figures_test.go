package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notListed are the nested modules the root package doc does not list,
// because a user does not import them: each says why. A new nested module
// must be listed in doc.go or here.
var notListed = map[string]string{
	"benchmarks":       "comparison benchmarks",
	"cmd/reuse/advise": "a command",
	"examples":         "examples",
	"poolvet":          "a vet tool, with its own README",
	"ports":            "ports of other projects' pooling, for comparison",
}

// packageDirs returns the directories, relative to the root, that hold an
// importable package (not main, not internal, not under tools, cmd or
// testdata), and the directories holding a nested module's go.mod.
func packageDirs(t *testing.T) (pkgs, modules []string) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (name == "testdata" || name == "internal" || strings.HasPrefix(name, ".") || rel == "tools") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && rel != "." {
				modules = append(modules, rel)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if f.Name.Name != "main" && !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs, modules
}

// inModule returns the nested module that holds dir, "" for the root one.
func inModule(dir string, modules []string) string {
	for _, m := range modules {
		if dir == m || strings.HasPrefix(dir, m+"/") {
			return m
		}
	}
	return ""
}

// TestPackageListComplete checks that the root package doc names every
// package of the root module that a user imports, and every nested module
// that is a library.
func TestPackageListComplete(t *testing.T) {
	skipWasm(t)
	p := loadPkg(t, ".")
	text := p.doc.Doc
	named := func(name string) bool {
		return regexp.MustCompile(`(^|[\s(,])` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
	}
	pkgs, modules := packageDirs(t)
	seen := 0
	for _, dir := range pkgs {
		if dir == "." || inModule(dir, modules) != "" || strings.HasPrefix(dir, "cmd/") {
			continue
		}
		seen++
		if !named(dir) {
			t.Errorf("doc.go: the package list does not name %s", dir)
		}
	}
	if seen < 8 {
		t.Errorf("found %d packages in the root module, want at least 8: the walk misses them", seen)
	}
	for _, m := range modules {
		if _, ok := notListed[m]; ok {
			continue
		}
		if !named(m) {
			t.Errorf("doc.go: the package list does not name the nested module %s (list it, or add it to notListed with the reason)", m)
		}
	}
	for m := range notListed {
		if _, err := os.Stat(filepath.Join(root, m, "go.mod")); err != nil {
			t.Errorf("notListed names %s, which is not a nested module", m)
		}
	}
}

// read returns the file at path, relative to the root.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// space matches a run of white space, which find reads as one space.
var space = regexp.MustCompile(`\s+`)

// find returns the submatches of re in the file at path, with every run of
// white space read as one space (and in a Go file, the // of each comment
// line as white space), failing the test when the text that states a
// figure is gone (then this test needs the new wording).
func find(t *testing.T, path, re string) []string {
	t.Helper()
	text := read(t, path)
	if strings.HasSuffix(path, ".go") {
		text = commentBreak.ReplaceAllString(text, " ")
	}
	m := regexp.MustCompile(re).FindStringSubmatch(space.ReplaceAllString(text, " "))
	if m == nil {
		t.Fatalf("%s: no match for %q: the figure's wording changed; update this test", path, re)
	}
	return m
}

// constValue evaluates the constant name declared in the package in dir:
// integer literals, <<, *, +, and time.Second and time.Millisecond as
// nanoseconds.
func constValue(t *testing.T, dir, name string) int64 {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if id.Name == name && i < len(vs.Values) {
						return eval(t, vs.Values[i])
					}
				}
			}
		}
	}
	t.Fatalf("%s: no constant %s", dir, name)
	return 0
}

func eval(t *testing.T, e ast.Expr) int64 {
	t.Helper()
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(t, e.X)
	case *ast.BasicLit:
		v, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	case *ast.SelectorExpr:
		switch x := e.X.(*ast.Ident); x.Name + "." + e.Sel.Name {
		case "time.Second":
			return 1e9
		case "time.Millisecond":
			return 1e6
		}
	case *ast.BinaryExpr:
		x, y := eval(t, e.X), eval(t, e.Y)
		switch e.Op {
		case token.SHL:
			return x << y
		case token.MUL:
			return x * y
		case token.ADD:
			return x + y
		}
	}
	t.Fatalf("cannot evaluate %T", e)
	return 0
}

// TestReadmeFigures checks the figures of README.md that the code decides.
func TestReadmeFigures(t *testing.T) {
	skipWasm(t)
	check := func(what string, got string, want int64) {
		t.Helper()
		if got != strconv.FormatInt(want, 10) {
			t.Errorf("README.md: %s is %s, the code says %d", what, got, want)
		}
	}
	check("reuse.Slices' default (MiB)", find(t, "README.md", `keeps arrays up to (\d+) MiB`)[1],
		constValue(t, ".", "DefaultSliceBytes")>>20)
	check("bytebuf's default budget (MiB)", find(t, "README.md", `within its budget\s+\((\d+) MiB for every four processors by default\)`)[1],
		constValue(t, "bytebuf", "DefaultBudget")>>20)
	check("reuseprom's push timeout (s)", find(t, "README.md", `(\d+) s default timeout`)[1],
		constValue(t, "reuseprom", "DefaultTimeout")/1e9)

	addr := find(t, "README.md", "`-addr` defaults to `([^`]+)`")[1]
	if want := find(t, "examples/server/main.go", `flag\.String\("addr", "([^"]+)"`)[1]; addr != want {
		t.Errorf("README.md: the server's -addr defaults to %s, the code says %s", addr, want)
	}
	goVersion := find(t, "README.md", `with Go (1\.\d+) or newer`)[1]
	if want := find(t, "go.mod", `(?:^| )go (1\.\d+)`)[1]; goVersion != want {
		t.Errorf("README.md: Go %s or newer, go.mod says go %s", goVersion, want)
	}

	// The versions of the nested modules' dependencies.
	for _, c := range []struct{ doc, re, mod, dep string }{
		{"README.md", "`github.com/prometheus/client_golang` (v[\\d.]+)", "reuseprom/go.mod", "github.com/prometheus/client_golang"},
		{"kgzip/doc.go", `it requires klauspost/compress (v[\d.]+)`, "kgzip/go.mod", "github.com/klauspost/compress"},
		{"reuseprom/doc.go", `requires github.com/prometheus/client_golang (v[\d.]+)`, "reuseprom/go.mod", "github.com/prometheus/client_golang"},
	} {
		got := find(t, c.doc, c.re)[1]
		if want := find(t, c.mod, regexp.QuoteMeta(c.dep)+` (v[\d.]+)`)[1]; got != want {
			t.Errorf("%s: %s %s; %s requires %s", c.doc, c.dep, got, c.mod, want)
		}
	}

	// The Debian packages scripts/test installs, which docs/TESTING.md lists.
	listed := regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(
		find(t, "docs/TESTING.md", `installs any missing Debian packages\s*\(([^)]*)\)`)[1], -1)
	var got, want []string
	for _, m := range listed {
		got = append(got, m[1])
	}
	for _, m := range regexp.MustCompile(`missing\+=\(([a-z-]+)\)`).FindAllStringSubmatch(read(t, "scripts/test"), -1) {
		want = append(want, m[1])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("docs/TESTING.md: scripts/test installs the Debian packages %v, the page lists %v", want, got)
	}

	// The sets of scripts/bench.
	var sets []string
	for _, m := range regexp.MustCompile(`(?m)^want (\w+) `).FindAllStringSubmatch(read(t, "scripts/bench"), -1) {
		if !slices.Contains(sets, m[1]) {
			sets = append(sets, m[1])
		}
	}
	for _, doc := range []string{"benchmarks/README.md"} {
		m := find(t, doc, "scripts/bench (\\w+)`((?:, (?:and )?`\\w+`)+)")
		named := []string{m[1]}
		for _, m := range regexp.MustCompile("`(\\w+)`").FindAllStringSubmatch(m[2], -1) {
			named = append(named, m[1])
		}
		if !slices.Equal(named, sets) {
			t.Errorf("%s: names the sets of scripts/bench as %v; scripts/bench has %v", doc, named, sets)
		}
	}
}

// TestReadmeLeadsWithTheLibrary keeps README.md short and about the
// library: at most 250 lines, with Go code within its first 40. The rest
// goes to docs/*.md, which it links.
func TestReadmeLeadsWithTheLibrary(t *testing.T) {
	skipWasm(t)
	lines := strings.Split(read(t, "README.md"), "\n")
	if n := len(lines) - 1; n > 250 {
		t.Errorf("README.md has %d lines, want at most 250: move detail to a page under docs/ and link it", n)
	}
	first := slices.IndexFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "```go" })
	if first < 0 || first+2 > 40 {
		t.Errorf("README.md: the first Go block starts at line %d, want one within the first 40 lines", first+2)
	}
}

// TestBenchmarksReadmeShort keeps benchmarks/README.md a summary: history
// and what was tried go to dated files under benchmarks/results.
func TestBenchmarksReadmeShort(t *testing.T) {
	skipWasm(t)
	if n := strings.Count(read(t, "benchmarks/README.md"), "\n"); n > 300 {
		t.Errorf("benchmarks/README.md has %d lines, want at most 300: move history to benchmarks/results/<date>-<topic>.md", n)
	}
}

// lineClaim matches a claim of size in lines: "`cmd/reuse/internal/chart`,
// about 300 lines" or "about three hundred lines".
var lineClaim = regexp.MustCompile("(?:`([\\w/.-]+)`[^.`]{0,40}?)?\\b(?:about |some |only )?(\\d+|one|two|three|four|five) (hundred )?lines\\b")

// goLines counts the lines of the non-test Go files in dir, or of the file
// path.
func goLines(t *testing.T, path string) int {
	t.Helper()
	full := filepath.Join(root, path)
	st, err := os.Stat(full)
	if err != nil {
		return -1
	}
	files := []string{full}
	if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(full, "*.go"))
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "\n")
	}
	return n
}

// TestLineCounts checks every claim of a size in lines in README.md and the
// package docs: it must name the package or file, in backquotes, and be
// within a tenth of its size in non-test Go lines.
func TestLineCounts(t *testing.T) {
	skipWasm(t)
	words := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
	docs := []string{"README.md"}
	for _, dir := range append(contractPackages, "cmd/reuse/internal/chart", "cmd/reuse/internal/report") {
		docs = append(docs, filepath.Join(dir, "doc.go"))
	}
	for _, doc := range docs {
		if _, err := os.Stat(filepath.Join(root, doc)); err != nil {
			continue
		}
		text := space.ReplaceAllString(strings.ReplaceAll(read(t, doc), "\n//", "\n"), " ")
		for _, m := range lineClaim.FindAllStringSubmatch(text, -1) {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				n = words[m[2]]
			}
			if m[3] != "" {
				n *= 100
			}
			path := m[1]
			if path == "" && strings.HasSuffix(doc, "doc.go") {
				path = filepath.Dir(doc)
			}
			got := goLines(t, path)
			switch {
			case path == "" || got < 0:
				t.Errorf("%s: %q: a size in lines must name the package or file it counts", doc, m[0])
			case float64(n) < 0.9*float64(got) || float64(n) > 1.1*float64(got):
				t.Errorf("%s: %q: %s has %d lines of non-test Go", doc, m[0], path, got)
			}
		}
	}
}

// TestPackageDocFigures checks sizes the package docs state against the
// constants that decide them.
func TestPackageDocFigures(t *testing.T) {
	skipWasm(t)
	for _, c := range []struct {
		doc, re, dir, name string
		shift              int64
	}{
		{"bufiopool/doc.go", `from MinSize \((\d+) bytes`, "bufiopool", "MinSize", 0},
		{"bufiopool/doc.go", `MaxPooledSize \((\d+) KiB\)`, "bufiopool", "MaxPooledSize", 10},
		{"jsonpool/doc.go", `Encoders that wrote more than (\d+) KiB`, "jsonpool", "maxRetained", 10},
		{"slices.go", `fit in (\d+) MiB, rounded down to a size class \((\d+) MiB for \[\]byte`, ".", "DefaultSliceBytes", 20},
	} {
		m := find(t, c.doc, c.re)
		want := constValue(t, c.dir, c.name) >> c.shift
		for _, got := range m[1:] {
			if got != strconv.FormatInt(want, 10) {
				t.Errorf("%s: %q says %s; %s is %d", c.doc, m[0], got, c.name, want)
			}
		}
	}
}
