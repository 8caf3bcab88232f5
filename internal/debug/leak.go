//go:build reusedebug && !tinygo

package debug

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"
	"weak"
)

// Leaks is true where leak detection works: runtime.AddCleanup and weak
// pointers are implemented (everywhere but TinyGo).
const Leaks = true

// key identifies an object without keeping it alive. Weak pointers to
// different objects never compare equal, even after the first is collected
// and the second allocated at the same address.
type key = weak.Pointer[byte]

func keyOf(obj unsafe.Pointer) key { return weak.Make((*byte)(obj)) }

// watch arranges for collected(r) to run once obj is unreachable. Neither r
// nor collected refers to obj.
func watch(obj unsafe.Pointer, r *record) {
	runtime.AddCleanup((*byte)(obj), collected, r)
}

// collected runs, in a cleanup goroutine, once the object of r is
// unreachable: it forgets r, and reports a leak if the object was out.
func collected(r *record) {
	s := r.shard
	s.mu.Lock()
	if s.m[r.key] == r {
		delete(s.m, r.key)
	}
	leaked := r.got && !r.in && r.leaks
	var rep Report
	if leaked {
		var b strings.Builder
		r.get.format(&b, "Get")
		rep = Report{
			Kind:   Leak,
			Pool:   r.poolName(),
			Detail: fmt.Sprintf("object %#x was taken by %s at %s and collected without being given back", r.obj, r.get.call("Get"), r.get.site()),
			Site:   r.get.site(),
			Stacks: b.String(),
		}
	}
	scope := r.scope
	slice, capBytes, poolKey := r.slice, r.capBytes, r.poolKey
	s.mu.Unlock()
	switch {
	case !leaked:
	case slice:
		// Append may have replaced the array before a correct Put of
		// the new one: the ledger decides.
		ledgerCollected(poolKey, capBytes, rep, scope)
	default:
		deliverLeak(rep, scope)
	}
}

// deliverLeak sends a leak report to scope, the handler in place at the
// object's Get: the default when it was nil, and standard error once a
// test's scoped handler has closed.
func deliverLeak(rep Report, scope *Handler) {
	switch {
	case scope == nil:
		Fallback(rep)
	case !scope.Scoped:
		// The program's handler when the object was taken, even if
		// a test's has replaced it since: never a test that did not
		// take the object.
		scope.F(rep)
	case !scope.deliver(rep):
		fmt.Fprintf(os.Stderr, "%s(found after the test that took the object ended)\n", rep)
	}
}

// deliver gives a leak report to h; false means h is closed.
func (h *Handler) deliver(r Report) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.closed {
		return false
	}
	h.F(r)
	return true
}
