package scriptcheck

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// canRun runs scripts/can-run-goarch for arch and returns its exit code
// and standard error.
func canRun(t *testing.T, arch string) (int, string) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no subprocesses on " + runtime.GOOS)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("../../scripts/can-run-goarch")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script, arch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stderr.String()
	default:
		t.Fatalf("can-run-goarch %s: %v", arch, err)
		return -1, ""
	}
}

// hostArch is the GOARCH of the machine the test runs on, which is not
// runtime.GOARCH when the test binary itself is a 386 one.
func hostArch(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOHOSTARCH").Output()
	if err != nil {
		t.Skipf("go env GOHOSTARCH: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestCanRunHostArch(t *testing.T) {
	arch := hostArch(t)
	if code, stderr := canRun(t, arch); code != 0 {
		t.Errorf("can-run-goarch %s (the host's own) = exit %d, want 0; stderr: %s", arch, code, stderr)
	}
}

// TestCannotRunForeignArch builds for an architecture whose binaries this
// kernel cannot exec, as a kernel without 32-bit support cannot exec 386
// ones: the same exec format error.
func TestCannotRunForeignArch(t *testing.T) {
	host := hostArch(t)
	var foreign string
	for _, arch := range []string{"s390x", "mips64", "ppc64", "riscv64"} {
		if arch == host {
			continue
		}
		// An emulator registered with binfmt_misc (qemu-user-binfmt)
		// would run it; pick an architecture that has none.
		if _, err := os.Stat("/proc/sys/fs/binfmt_misc/qemu-" + arch); err == nil {
			continue
		}
		foreign = arch
		break
	}
	if foreign == "" {
		t.Skip("every candidate architecture has an emulator registered")
	}
	before := names(t)
	code, stderr := canRun(t, foreign)
	if code != 1 {
		t.Fatalf("can-run-goarch %s = exit %d, want 1 (cannot run); stderr: %s", foreign, code, stderr)
	}
	if !strings.Contains(stderr, "does not run here") {
		t.Errorf("can-run-goarch %s: stderr %q does not say why", foreign, stderr)
	}
	// The shell that ran the foreign binary as a script must not have left
	// files where the script was called from.
	for n := range names(t) {
		if !before[n] {
			t.Errorf("can-run-goarch %s left %q in the working directory", foreign, n)
		}
	}
}

// names returns the names in the working directory.
func names(t *testing.T) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]bool)
	for _, e := range entries {
		m[e.Name()] = true
	}
	return m
}

func TestCanRunBadArch(t *testing.T) {
	if code, stderr := canRun(t, "nosucharch"); code != 2 {
		t.Errorf("can-run-goarch nosucharch = exit %d, want 2 (build fails); stderr: %s", code, stderr)
	}
}
