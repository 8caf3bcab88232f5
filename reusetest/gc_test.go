package reusetest

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// failTB records Errorf calls.
type failTB struct {
	testing.TB
	errors []string
}

func (f *failTB) Helper() {}
func (f *failTB) Errorf(format string, a ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, a...))
}

//go:noinline
func dropWithCleanup(ran *atomic.Bool) {
	x := new([128]byte)
	runtime.AddCleanup(x, func(b *atomic.Bool) { b.Store(true) }, ran)
}

func TestCollect(t *testing.T) {
	if !Collect() {
		t.Fatal("Collect: the sentinel's cleanup did not run")
	}
	var ran atomic.Bool
	dropWithCleanup(&ran)
	if !CollectUntil(t, "the dropped object's cleanup", ran.Load) {
		t.Fatal("CollectUntil returned false")
	}
}

func TestCollectUntilFails(t *testing.T) {
	defer func(n int) { collectTries = n }(collectTries)
	collectTries = 3
	f := &failTB{TB: t}
	calls := 0
	if CollectUntil(f, "Godot", func() bool { calls++; return false }) {
		t.Error("CollectUntil(never true) = true")
	}
	if len(f.errors) != 1 || !strings.Contains(f.errors[0], "reusetest: CollectUntil: still waiting for Godot") {
		t.Errorf("CollectUntil(never true): errors %q, want one naming what it waited for", f.errors)
	}
	if calls != 4 {
		t.Errorf("cond called %d times, want 4 (before each of 3 collections, and after)", calls)
	}
}
