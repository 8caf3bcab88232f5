package main

import (
	"bytes"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoFix builds the command and runs go fix -fixtool with it over a
// copy of testdata/gofix, a module of two packages: demo, whose three
// mistakes (a non-pointer Put, a missing Reset, pooled memory returned) go
// fix must rewrite as demo.go.golden and demo_test.go.golden say, its test
// file included; and other, whose pool a test file uses in a form the
// rewrite does not know, which must stay as it is. The fixed module must
// then pass go vet with poolvet on demo, and its tests. (poolvet -fix, which
// loads a package with and without its test files, is left out: it
// type-checks the standard library from source, 20 s here. TestFixes covers
// the build without test files, in testdata/src/fixtest.)
func TestGoFix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs go fix")
	}
	v, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !goFixHasFixtool(strings.TrimSpace(string(v))) {
		t.Skipf("%s: go fix -fixtool needs Go 1.26", v)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "poolvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "m")
	if err := os.CopyFS(mod, os.DirFS("testdata/gofix")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/demo\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("go", "fix", "-fixtool="+bin, "./...")
	for _, f := range []string{"demo.go", "demo_test.go"} {
		want := read(t, filepath.Join("testdata/gofix", f+".golden"))
		if got := read(t, filepath.Join(mod, f)); !bytes.Equal(got, want) {
			t.Errorf("%s after go fix:\n%s\nwant:\n%s", f, got, want)
		}
	}
	for _, f := range []string{"other/other.go", "other/other_test.go"} {
		if got, orig := read(t, filepath.Join(mod, f)), read(t, filepath.Join("testdata/gofix", f)); !bytes.Equal(got, orig) {
			t.Errorf("go fix changed %s, whose pool a test uses in a form the fix does not know:\n%s", f, got)
		}
	}
	run("go", "vet", "-vettool="+bin, ".")
	run("go", "test", "./...")
}

// goFixHasFixtool reports whether go fix of the toolchain of version v
// (go1.26.8) takes -fixtool; a development version is taken to be new.
func goFixHasFixtool(v string) bool {
	return !version.IsValid(v) || version.Compare(v, "go1.26") >= 0
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
