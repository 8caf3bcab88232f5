//go:build !reusedebug

package reuse_test

import (
	"runtime/debug"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/race"
)

// Without -tags reusedebug nothing is checked: a double Put is stored twice,
// as with sync.Pool, and no handler is called.
func TestNormalBuildChecksNothing(t *testing.T) {
	if reuse.Debug {
		t.Fatal("reuse.Debug is true without -tags reusedebug")
	}
	if race.Enabled {
		t.Skip("sync.Pool drops a quarter of Puts at random under -race")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	called := false
	prev := reuse.SetMisuseHandler(func(reuse.Misuse) { called = true })
	defer func() { reuse.SetMisuseHandler(prev) }()

	var p reuse.Pool[*[64]byte]
	x := new([64]byte)
	p.Put(x)
	p.Put(x)
	if a, b := p.Get(), p.Get(); a != x || b != x {
		t.Errorf("normal build: after a double Put, Get, Get = %p, %p, want x (%p) twice", a, b, x)
	}
	if called {
		t.Error("normal build called the misuse handler")
	}
}
