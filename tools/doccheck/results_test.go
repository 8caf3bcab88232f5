package doccheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The bounds on benchmarks/results: it holds the runs a doc cites, not
// every run (CONTRIBUTING.md, "Where results go").
const (
	maxResultFiles = 30
	maxResultBytes = 1 << 20
)

// resultsDir is where the cited runs live, relative to the root.
const resultsDir = "benchmarks/results"

// citingDocs returns the text of every file that may cite a result, by path
// relative to the root: the Markdown files outside benchmarks/results and
// the non-test Go files (package docs and comments), leaving out testdata
// and hidden directories.
func citingDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || rel == resultsDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".md") && (!strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		docs[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// checkResults returns what is wrong with the results folder dir, given the
// docs that may cite its files: more than maxResultFiles files, more than
// maxResultBytes in all, or a file no doc names. A doc cites a file by its
// path from the folder's name on: results/NAME, benchmarks/results/NAME or
// ../benchmarks/results/DIR/NAME.
func checkResults(dir string, docs map[string]string) ([]string, error) {
	var files []string
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, filepath.ToSlash(rel))
		total += info.Size()
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var problems []string
	if len(files) > maxResultFiles {
		problems = append(problems, fmt.Sprintf("%d files, want at most %d: keep only the runs a doc cites (git history keeps the rest)", len(files), maxResultFiles))
	}
	if total > maxResultBytes {
		problems = append(problems, fmt.Sprintf("%d bytes, want at most %d: cite the small table a claim needs, not the full dump", total, maxResultBytes))
	}
	for _, f := range files {
		cite := regexp.MustCompile(`\bresults/` + regexp.QuoteMeta(f) + `(?:[^\w./-]|$)`)
		var by []string
		for doc, text := range docs {
			if cite.MatchString(text) {
				by = append(by, doc)
			}
		}
		if len(by) == 0 {
			problems = append(problems, fmt.Sprintf("%s: no doc cites it: cite it where a claim rests on it, or delete it", f))
		}
	}
	return problems, nil
}

// TestResultsCited keeps benchmarks/results to what the docs cite: at most
// 30 files and 1 MiB, each named by a doc.
func TestResultsCited(t *testing.T) {
	skipWasm(t)
	problems, err := checkResults(filepath.Join(root, resultsDir), citingDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", resultsDir, p)
	}
}

// TestCheckResultsFails shows that each of the three checks can fail: a
// folder of 31 files, one of them over the size bound and one cited by no
// doc.
func TestCheckResultsFails(t *testing.T) {
	dir := t.TempDir()
	var doc strings.Builder
	for i := range maxResultFiles + 1 {
		name := fmt.Sprintf("run-%02d.txt", i)
		size := 10
		if i == 0 {
			size = maxResultBytes + 1
		}
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		if i != 7 {
			fmt.Fprintf(&doc, "[run](results/%s)\n", name)
		}
	}
	// A file whose name only starts another's is not cited by it.
	doc.WriteString("results/run-07.txt.gz\n")
	problems, err := checkResults(dir, map[string]string{"README.md": doc.String()})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems, "\n")
	for _, want := range []string{"31 files, want at most 30", "bytes, want at most 1048576", "run-07.txt: no doc cites it"} {
		if !strings.Contains(got, want) {
			t.Errorf("checkResults found:\n%s\nwant a problem containing %q", got, want)
		}
	}
	if len(problems) != 3 {
		t.Errorf("checkResults found %d problems, want 3:\n%s", len(problems), got)
	}
}
