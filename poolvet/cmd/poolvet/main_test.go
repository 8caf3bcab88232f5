package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const buggy = `package p

import (
	"bytes"
	"sync"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func F() []byte {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	defer pool.Put(b)
	return b.Bytes()
}
`

// TestBothModes builds the command and runs it standalone and under go vet
// over a module with one bug: both must report it and fail.
func TestBothModes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs go vet")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "poolvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "m")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "p.go"), []byte(buggy), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{bin, "./..."}, {"go", "vet", "-vettool=" + bin, "./..."}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s: succeeded, want a failure for the finding\n%s", strings.Join(args, " "), out)
		}
		if !strings.Contains(string(out), "memory of b is returned, but the deferred Put") {
			t.Errorf("%s: output lacks the finding:\n%s", strings.Join(args, " "), out)
		}
	}
}
