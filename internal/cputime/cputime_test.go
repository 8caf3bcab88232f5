package cputime_test

import (
	"testing"
	"time"

	"github.com/reuse-go/reuse/internal/cputime"
)

var sink int

func TestNowAdvances(t *testing.T) {
	if !cputime.Supported {
		if cputime.Now() != 0 {
			t.Error("Now() != 0 where Supported is false")
		}
		t.Skip("no process CPU time on this platform")
	}
	start := cputime.Now()
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) {
		sink++
	}
	if d := cputime.Now() - start; d < 10*time.Millisecond {
		t.Errorf("50 ms of busy loop used %v of CPU time, want at least 10ms", d)
	}
	// Sleeping uses none.
	start = cputime.Now()
	time.Sleep(50 * time.Millisecond)
	if d := cputime.Now() - start; d > 25*time.Millisecond {
		t.Errorf("50 ms of sleep used %v of CPU time, want much less", d)
	}
}
