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
	// Busy work advances the clock. On a loaded machine the loop gets only a
	// share of a core, so it runs until 20 ms of CPU time have passed, or
	// fails after 20 s of wall time.
	start := cputime.Now()
	deadline := time.Now().Add(20 * time.Second)
	for cputime.Now()-start < 20*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("20 s of busy loop used only %v of CPU time", cputime.Now()-start)
		}
		for range 1000 {
			sink++
		}
	}
	// Sleeping uses none.
	start = cputime.Now()
	time.Sleep(50 * time.Millisecond)
	if d := cputime.Now() - start; d > 25*time.Millisecond {
		t.Errorf("50 ms of sleep used %v of CPU time, want much less", d)
	}
}
