package reuse_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTiers holds the module to its layering: the library (the root package
// and its public subpackages) sits on internal/, which holds only library
// mechanics and imports no public package of the module; the commands and
// nested modules sit on the library's public API, and no nested module's
// non-test code imports the core's internal packages, which promise nothing
// across versions. Only internal/perp reaches into the runtime with
// //go:linkname.
func TestTiers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over every module")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const core = "github.com/reuse-go/reuse"
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	mods, err := filepath.Glob(filepath.Join(root, "*", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mods = append([]string{filepath.Join(root, "go.mod")}, mods...)
	for _, mod := range mods {
		dir := filepath.Dir(mod)
		cmd := exec.Command(goBin, "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("go list in %s: %v", dir, err)
			continue
		}
		nested := dir != root
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 0 {
				continue
			}
			pkg, imports := f[0], f[1:]
			for _, imp := range imports {
				if imp != core && !strings.HasPrefix(imp, core+"/") {
					continue
				}
				internalImp := imp == core+"/internal" || strings.HasPrefix(imp, core+"/internal/")
				switch {
				case nested && internalImp:
					t.Errorf("%s (nested module %s) imports the core's %s", pkg, filepath.Base(dir), imp)
				case !nested && strings.HasPrefix(pkg, core+"/internal/") && !internalImp:
					t.Errorf("%s imports %s: internal/ must not import a public package of the module", pkg, imp)
				}
			}
		}
	}

	// Only internal/perp may declare a linkname into the runtime.
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		directive := bytes.HasPrefix(src, []byte("//go:linkname")) || bytes.Contains(src, []byte("\n//go:linkname"))
		if directive && filepath.Dir(path) != filepath.Join(root, "internal", "perp") {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s declares a //go:linkname; only internal/perp may", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
