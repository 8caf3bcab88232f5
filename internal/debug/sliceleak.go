//go:build reusedebug && !tinygo

package debug

import (
	"runtime"
	"sync"
)

// A pool of slices cannot tell a leaked array from one that append replaced
// with a larger one before a correct Put of the new array: both are
// collected while out. Each pool has a ledger that pairs them. A Put of an
// array the pool did not hand out is a credit, the possible replacement of
// a smaller array; a collected array that was out either takes a credit
// larger than itself, or waits, pending, for one. Where several could pair,
// the closest sizes do, as append grows an array by a factor of at most
// two. A pending array is
// reported as a leak when graceCycles more garbage collections have passed
// (counted by ticks, cleanups run after each) without a match, or when the
// test that took it ends; credits expire after as many, so an unmatched Put
// cannot hide leaks for long.
//
// What this cannot tell apart: an array replaced by append whose
// replacement is held through graceCycles collections before its Put is
// reported (the report says so), and a leak that coincides with an
// unrelated Put of a larger array the pool did not hand out is not.

// graceCycles is how many garbage collections a collected array waits for
// the Put of its replacement.
const graceCycles = 4

// pendingLeak is a collected array waiting for its verdict.
type pendingLeak struct {
	due      int // the tick that reports it
	capBytes int
	rep      Report
	scope    *Handler
}

// credit is a Put of an array the pool did not hand out.
type credit struct {
	capBytes int
	ticks    int // ticks seen
}

type ledger struct {
	pending []pendingLeak
	credits []credit
}

var ledgers struct {
	mu    sync.Mutex // protects the fields below
	m     map[key]*ledger
	armed bool // a tick is scheduled
	ticks int  // ticks run so far
}

// ledgerOf returns pool's ledger, making it; ledgers.mu must be held.
func ledgerOf(pool key) *ledger {
	if ledgers.m == nil {
		ledgers.m = make(map[key]*ledger)
	}
	l := ledgers.m[pool]
	if l == nil {
		l = new(ledger)
		ledgers.m[pool] = l
	}
	return l
}

// ledgerForeignPut records the Put of an array of capBytes that pool did
// not hand out: it settles the oldest pending array it could have replaced,
// or becomes a credit.
func ledgerForeignPut(pool key, capBytes int) {
	ledgers.mu.Lock()
	defer ledgers.mu.Unlock()
	l := ledgerOf(pool)
	// The largest smaller array is the likeliest one append grew out of.
	best := -1
	for i, p := range l.pending {
		if p.capBytes < capBytes && (best < 0 || p.capBytes > l.pending[best].capBytes) {
			best = i
		}
	}
	if best >= 0 {
		l.pending = append(l.pending[:best], l.pending[best+1:]...)
		return
	}
	l.credits = append(l.credits, credit{capBytes: capBytes})
	armTick()
}

// ledgerCollected is called for an array of capBytes collected while out of
// pool: it takes a credit, or waits for its verdict.
func ledgerCollected(pool key, capBytes int, rep Report, scope *Handler) {
	ledgers.mu.Lock()
	defer ledgers.mu.Unlock()
	l := ledgerOf(pool)
	// The smallest larger array is the likeliest one append grew into.
	best := -1
	for i, c := range l.credits {
		if c.capBytes > capBytes && (best < 0 || c.capBytes < l.credits[best].capBytes) {
			best = i
		}
	}
	if best >= 0 {
		l.credits = append(l.credits[:best], l.credits[best+1:]...)
		return
	}
	rep.Stacks += "(a slice's array: collected while out, and no Put of a larger array the pool did not hand out, which append could have made to replace it, followed within a few collections)\n"
	// The next tick to run after a whole collection cycle: a tick
	// already scheduled may run at the end of the current one.
	due := ledgers.ticks + graceCycles
	if ledgers.armed {
		due++
	}
	l.pending = append(l.pending, pendingLeak{due, capBytes, rep, scope})
	armTick()
}

// armTick schedules a tick after the next garbage collection, unless one is
// scheduled; ledgers.mu must be held.
func armTick() {
	if ledgers.armed {
		return
	}
	ledgers.armed = true
	dropTick()
}

//go:noinline
func dropTick() {
	runtime.AddCleanup(new([64]byte), func(int) { tick() }, 0)
}

// tick reports the pending arrays still unmatched, ages the credits, and
// schedules the next tick while anything is left.
func tick() {
	var due []pendingLeak
	ledgers.mu.Lock()
	ledgers.armed = false
	ledgers.ticks++
	for pool, l := range ledgers.m {
		waiting := l.pending[:0]
		for _, p := range l.pending {
			if p.due <= ledgers.ticks {
				due = append(due, p)
			} else {
				waiting = append(waiting, p)
			}
		}
		l.pending = waiting
		kept := l.credits[:0]
		for _, c := range l.credits {
			if c.ticks++; c.ticks <= graceCycles {
				kept = append(kept, c)
			}
		}
		l.credits = kept
		if len(l.credits) == 0 && len(l.pending) == 0 {
			delete(ledgers.m, pool)
		} else {
			armTick()
		}
	}
	ledgers.mu.Unlock()
	for _, p := range due {
		deliverLeak(p.rep, p.scope)
	}
}

// SettleSlices reports now the pending arrays taken while h was installed,
// without waiting for their tick: a test's handler calls it before it
// closes, so that the test's own leaks reach it.
func SettleSlices(h *Handler) {
	var due []pendingLeak
	ledgers.mu.Lock()
	for _, l := range ledgers.m {
		kept := l.pending[:0]
		for _, p := range l.pending {
			if p.scope == h {
				due = append(due, p)
			} else {
				kept = append(kept, p)
			}
		}
		l.pending = kept
	}
	ledgers.mu.Unlock()
	for _, p := range due {
		deliverLeak(p.rep, p.scope)
	}
}
