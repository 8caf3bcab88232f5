//go:build reusedebug && !tinygo

package debug

import (
	"runtime"
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
