package scriptcheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// skipWithoutProcesses skips where a test cannot start a process (js/wasm,
// wasip1), before it looks for one on a PATH those ports do not have.
func skipWithoutProcesses(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no subprocesses on " + runtime.GOOS)
	}
}

// goEnv returns the go command's value of the variable name.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Skipf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// opcost runs scripts/opcost with env added, and returns its exit code,
// standard output and standard error.
func opcost(t *testing.T, env ...string) (int, string, string) {
	t.Helper()
	skipWithoutProcesses(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("../../scripts/opcost")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, script)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), stdout.String(), stderr.String()
	} else if err != nil {
		t.Fatalf("scripts/opcost: %v", err)
	}
	return 0, stdout.String(), stderr.String()
}

// TestOpcostWithoutValgrind: where valgrind is missing, opcost says so and
// counts nothing, instead of failing half-way.
func TestOpcostWithoutValgrind(t *testing.T) {
	skipWithoutProcesses(t)
	dir := t.TempDir()
	for _, tool := range []string{"dirname"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := opcost(t, "PATH="+dir)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "valgrind is not installed") {
		t.Errorf("without valgrind: exit %d, stdout %q, stderr %q; want 0, nothing, a notice", code, stdout, stderr)
	}
}

// TestOpcostCounts counts bytebuf's op on one shape over a few thousand
// ops, and checks the row: every part counted, and a total that an op of
// a get, a write of a few hundred bytes, a hand-on and a put can take (it
// is about 515 instructions).
//
// It runs in the plain native build of the tests only. scripts/opcost
// builds and counts its own binary, the same one whether this test binary
// has -race or build tags, so scripts/test's other passes would repeat the
// same minute under callgrind.
func TestOpcostCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs under callgrind: not in -short")
	}
	skipWithoutProcesses(t)
	if !plainBuild {
		t.Skip("counted in the plain build of the tests only: scripts/opcost builds the same binary here")
	}
	if host := goEnv(t, "GOHOSTARCH"); runtime.GOARCH != host {
		t.Skipf("counted in the native run only (GOARCH %s here, %s on the host)", runtime.GOARCH, host)
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("valgrind not found under CI: %v", err)
		}
		t.Skipf("valgrind not found: %v", err)
	}
	code, stdout, stderr := opcost(t, "SHAPES=lognormal-small", "PEERS=bytebuf", "N1=5000", "N2=25000")
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	m := regexp.MustCompile(`(?m)^\| lognormal-small \| bytebuf \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no row for lognormal-small and bytebuf in:\n%s", stdout)
	}
	var n [4]int
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	if n[0] < 300 || n[0] > 1000 || n[1] == 0 || n[2] == 0 || n[3] == 0 {
		t.Errorf("row %q: want a total of 300-1000 instructions per op, each part above 0", m[0])
	}
	if sum := n[1] + n[2] + n[3]; sum < n[0]-2 || sum > n[0]+2 {
		t.Errorf("row %q: the parts add up to %d, the total is %d", m[0], sum, n[0])
	}
}
