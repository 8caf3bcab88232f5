//go:build !reusedebug

package reusetest_test

import (
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// Without the tag nothing is checked, so FailOnMisuse never fails a test.
func TestFailOnMisuseNormalBuild(t *testing.T) {
	reusetest.FailOnMisuse(t)
	var p reuse.Pool[*[64]byte]
	x := new([64]byte)
	p.Put(x)
	p.Put(x) // a bug, but only the debug build sees it
}
