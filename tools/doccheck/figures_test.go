package doccheck

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
