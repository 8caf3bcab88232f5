package promtest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB whose Skip and Fatal record the message and end
// the goroutine, as the real ones do.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) { r.Skip(fmt.Sprintf(format, args...)) }
func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

func binaryIn(t *testing.T, name string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Binary(r, name)
	}()
	<-done
	return r
}

// TestMissingBinary: outside CI a missing binary skips with the install
// command; with CI=true it fails.
func TestMissingBinary(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no processes under wasm: Binary always skips")
	}
	const name = "prometheus-no-such-binary"
	for _, tc := range []struct {
		ci                  string
		wantSkip, wantFatal bool
	}{
		{"", true, false},
		{"false", true, false},
		{"true", false, true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := binaryIn(t, name)
			if got := r.skipped != ""; got != tc.wantSkip {
				t.Errorf("skipped = %q, want a skip: %t", r.skipped, tc.wantSkip)
			}
			if got := r.failed != ""; got != tc.wantFatal {
				t.Errorf("failed = %q, want a failure: %t", r.failed, tc.wantFatal)
			}
			if msg := r.skipped + r.failed; !strings.Contains(msg, Install) {
				t.Errorf("message %q does not say how to install: %q", msg, Install)
			}
		})
	}
}
