package scriptcheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
)

var held [][]byte // what the profile finds live

//go:noinline
func newBody() { held = append(held, make([]byte, 1<<20)) }

//go:noinline
func encodeStateGrow() { held = append(held, make([]byte, 512<<10)) }

// TestHeapsplit writes a heap profile of this process, in which 1 MiB was
// allocated by a function named newBody and 512 KiB by one named like
// encoding/json's encodeState, and checks that scripts/heapsplit puts each
// in its column.
func TestHeapsplit(t *testing.T) {
	skipWithoutProcesses(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1 // every allocation: exact figures
	defer func() { runtime.MemProfileRate = old }()
	held = nil // -count=2, -cpu=1,4: the last run's are garbage now
	newBody()
	encodeStateGrow()
	runtime.GC() // the profile is that of the last collection but one
	runtime.GC()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "v-1-0.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	runtime.KeepAlive(held)

	script, err := filepath.Abs("../../scripts/heapsplit")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bash, script, dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/heapsplit: %v\n%s", err, stderr.String())
	}
	var row []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "| v |") {
			row = strings.Fields(strings.ReplaceAll(line, "|", " "))
		}
	}
	if len(row) != 7 {
		t.Fatalf("no row for v in\n%s", stdout.String())
	}
	col := func(i int) int {
		n, err := strconv.Atoi(row[i])
		if err != nil {
			t.Fatalf("column %d: %q", i, row[i])
		}
		return n
	}
	if col(1) != 1 {
		t.Errorf("profiles = %d, want 1", col(1))
	}
	if js := col(3); js < 512 || js > 520 {
		t.Errorf("encode buffers = %d KiB, want 512", js)
	}
	if body := col(4); body < 1024 || body > 1032 {
		t.Errorf("response data = %d KiB, want 1024", body)
	}
	if all, rest := col(2), col(6); all < 1536 || rest != all-col(3)-col(4)-col(5) {
		t.Errorf("live %d KiB, rest %d: want at least 1536, and the rest what the columns leave", all, rest)
	}
}
