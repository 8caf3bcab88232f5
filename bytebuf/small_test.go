package bytebuf

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSmallEnough holds issue #32's bounds on the package's size: at most
// 1200 lines of non-test code, and the sizing explained in the package
// documentation in at most 40 lines.
func TestSmallEnough(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("the sources are counted on the native pass")
	}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines > 1200 {
		t.Errorf("bytebuf has %d lines of non-test code, over 1200", lines)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, sizing, ok := strings.Cut(string(doc), "// # How the pool sizes its Buffers\n")
	if !ok {
		t.Fatal("doc.go has no section on the sizing")
	}
	sizing, _, _ = strings.Cut(sizing, "\n// # ")
	if n := strings.Count(sizing, "\n") + 1; n > 40 {
		t.Errorf("the package documentation explains the sizing in %d lines, over 40", n)
	}
}
