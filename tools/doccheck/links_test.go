package doccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdLink matches an inline Markdown link or image: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading matches a Markdown heading.
var mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)

// anchor is GitHub's anchor for a heading: lower case, punctuation other
// than - and _ dropped, spaces to -.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of the headings of a Markdown file.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(text, -1) {
		a := anchor(m[1])
		for i := 1; out[a]; i++ { // GitHub numbers repeated headings
			a = anchor(m[1]) + "-" + string(rune('0'+i))
		}
		out[a] = true
	}
	return out
}

// TestMarkdownLinks checks every relative link of every Markdown file of
// the repository: the file or folder it names exists, and an anchor names
// a heading of the file it points into.
func TestMarkdownLinks(t *testing.T) {
	skipWasm(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		rel, _ := filepath.Rel(root, path)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, frag, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), file)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %s: %s does not exist", rel, target, file)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			db, err := os.ReadFile(dest)
			if err != nil {
				return err
			}
			if !anchors(string(db))[frag] {
				t.Errorf("%s: link %s: no heading with anchor #%s", rel, target, frag)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("checked %d links, want at least 10: the walk misses them", checked)
	}
}

// docRef matches a Markdown file of the repository named by its path in a
// Go comment (benchmarks/README.md, docs/PITFALLS.md), with the section
// quoted before it where there is one: "Benchmarks" in benchmarks/README.md.
var docRef = regexp.MustCompile(`(?:"([^"\n]+)" in )?\b((?:[a-z]+/)+[A-Za-z0-9_-]+\.md)\b`)

// commentBreak matches a line break inside a run of // comments, which
// TestGoDocReferences reads as a space.
var commentBreak = regexp.MustCompile(`\n\s*//\s*`)

// TestGoDocReferences checks that the Markdown files that Go comments name
// by path exist, relative to the repository root or to the package, and
// that a section quoted before one is a heading of it.
func TestGoDocReferences(t *testing.T) {
	skipWasm(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, m := range docRef.FindAllStringSubmatch(commentBreak.ReplaceAllString(string(b), " "), -1) {
			section, file := m[1], m[2]
			dest := filepath.Join(root, file)
			if _, err := os.Stat(dest); err != nil {
				dest = filepath.Join(filepath.Dir(path), file)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: names %s, which does not exist", rel, file)
					continue
				}
			}
			checked++
			if section == "" {
				continue
			}
			db, err := os.ReadFile(dest)
			if err != nil {
				return err
			}
			if !anchors(string(db))[anchor(section)] {
				t.Errorf("%s: names the section %q of %s, which has no such heading", rel, section, file)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Errorf("checked %d references, want at least 5: the walk misses them", checked)
	}
}
