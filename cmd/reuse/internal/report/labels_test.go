package report_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// label matches a pitfall label as the repository cites it: P and a number,
// as a word of its own.
var label = regexp.MustCompile(`\bP[1-9][0-9]*\b`)

// defined matches the heading that defines a label in docs/PITFALLS.md.
var defined = regexp.MustCompile(`(?m)^## (P[1-9][0-9]*) \S`)

// TestPitfallLabelsDefined scans every Go and Markdown file of the
// repository for pitfall labels and checks that docs/PITFALLS.md defines
// each one, once.
func TestPitfallLabelsDefined(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("reads the whole repository; the native run checks it")
	}
	root := filepath.Join("..", "..", "..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "PITFALLS.md"))
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]int{}
	for _, m := range defined.FindAllStringSubmatch(string(doc), -1) {
		defs[m[1]]++
	}
	for l, n := range defs {
		if n > 1 {
			t.Errorf("docs/PITFALLS.md defines %s %d times", l, n)
		}
	}
	cited := citedLabels(t, root)
	if len(cited) == 0 {
		t.Fatal("found no pitfall label in the repository: the scan is broken")
	}
	for l, where := range cited {
		if defs[l] == 0 {
			t.Errorf("%s is cited in %s but not defined in docs/PITFALLS.md", l, strings.Join(where, ", "))
		}
	}
}

// citedLabels returns each pitfall label cited in a .go or .md file under
// root, with the files citing it.
func citedLabels(t *testing.T, root string) map[string][]string {
	t.Helper()
	cited := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, l := range label.FindAllString(string(b), -1) {
			if !slices.Contains(cited[l], rel) {
				cited[l] = append(cited[l], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cited
}
