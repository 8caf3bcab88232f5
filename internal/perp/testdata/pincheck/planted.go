// Package planted holds Pin/Unpin mistakes for TestPinUnpinPlanted: each
// line marked with a want comment must be reported, and no other line.
// The functions without one are correct shapes that must not be reported.
package planted

import (
	"errors"

	p "github.com/reuse-go/reuse/internal/perp"
)

var slots []int

// earlyReturn forgets Unpin on its early return.
func earlyReturn(i int) int {
	pid := p.Pin()
	if i < 0 {
		return -1 // want "return while pinned"
	}
	v := slots[pid]
	p.Unpin()
	return v
}

// doubleUnpin unpins twice on one path.
func doubleUnpin(i int) {
	p.Pin()
	if i > 0 {
		p.Unpin()
	}
	p.Unpin() // want "Unpin on a path that is not pinned"
}

// fallsOff forgets Unpin in one arm and reaches the end pinned.
func fallsOff(i int) {
	p.Pin()
	if i > 0 {
		p.Unpin()
		return
	}
} // want "function ends while pinned"

// nested pins twice.
func nested() {
	p.Pin()
	p.Pin() // want "Pin while pinned"
	p.Unpin()
}

// deferredInBranch defers Unpin inside an if, which the check does not
// follow.
func deferredInBranch(i int) int {
	pid := p.Pin()
	if i > 0 {
		defer p.Unpin() // want "defer or go of Pin or Unpin"
	}
	return pid // want "return while pinned"
}

// deferredTwice defers Unpin and calls it too.
func deferredTwice() int {
	pid := p.Pin()
	defer p.Unpin()
	p.Unpin() // want "Unpin after a deferred Unpin"
	return pid
}

// panics while pinned.
func panics(i int) {
	p.Pin()
	if i < 0 {
		panic(errors.New("negative")) // want "panic while pinned"
	}
	p.Unpin()
}

// loopBreak leaves a loop by break while pinned.
func loopBreak(n int) {
	for i := 0; i < n; i++ {
		p.Pin()
		if slots[i] == 0 {
			break
		}
		p.Unpin()
	}
} // want "function ends while pinned"

// loopPin pins on every round and unpins only after the loop.
func loopPin(n int) {
	for range n {
		p.Pin() // want "Pin while pinned"
	}
	p.Unpin() // want "Unpin on a path that is not pinned"
}

// switchCase forgets Unpin in one case.
func switchCase(i int) int {
	pid := p.Pin()
	switch i {
	case 0:
		p.Unpin()
		return 0
	case 1:
		return pid // want "return while pinned"
	}
	p.Unpin()
	return pid
}

// inArgument pins inside a call's argument and forgets Unpin on one path.
func inArgument(i int) bool {
	if at(p.Pin()) {
		if i > 0 {
			return true // want "return while pinned"
		}
	}
	p.Unpin()
	return false
}

// closure's literal is a function of its own: its mistake is reported, and
// the outer function, which never pins, is not.
func closure() func() {
	return func() {
		p.Pin()
	} // want "function ends while pinned"
}

// labeled leaves an outer loop from an inner one while pinned.
func labeled(n int) {
outer:
	for i := range n {
		p.Pin() // want "Pin while pinned"
		for j := range n {
			if i == j {
				continue outer
			}
		}
		p.Unpin()
	}
} // want "function ends while pinned"

func at(pid int) bool { return pid < len(slots) }

// The shapes of the repository's sites, correct.

func getLike(i int) int {
	pid := p.Pin()
	if pid < len(slots) {
		if v := slots[pid]; v != 0 {
			slots[pid] = 0
			p.Unpin()
			return v
		}
		p.Unpin()
		return i
	}
	p.Unpin()
	return 0
}

func pinInCondition() bool {
	if at(p.Pin()) {
		slots[0]++
	}
	p.Unpin()
	return true
}

func repin(i int) bool {
	pid := p.Pin()
	if pid > i {
		p.Unpin()
		i = pid
		pid = p.Pin()
		if pid > i {
			p.Unpin()
			return false
		}
	}
	p.Unpin()
	return true
}

func perRound(n int) {
	for i := range n {
		p.Pin()
		if slots[i] == 0 {
			p.Unpin()
			continue
		}
		p.Unpin()
	}
}

func deferred(i int) int {
	pid := p.Pin()
	defer p.Unpin()
	if i > pid {
		return i
	}
	return pid
}

func switchAll(i int) {
	p.Pin()
	switch i {
	case 0:
		slots[0]++
		fallthrough
	case 1:
		slots[1]++
	default:
		p.Unpin()
		return
	}
	p.Unpin()
}
