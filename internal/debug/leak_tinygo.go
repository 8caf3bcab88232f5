//go:build reusedebug && tinygo

package debug

import "unsafe"

// Leaks is true where leak detection works: runtime.AddCleanup and weak
// pointers are implemented (everywhere but TinyGo).
const Leaks = false

// key identifies an object by address: TinyGo has no weak pointers, so a
// record outlives its object.
type key = uintptr

func keyOf(obj unsafe.Pointer) key { return uintptr(obj) }

// watch does nothing: TinyGo runs no cleanups, so leaks are not detected.
func watch(unsafe.Pointer, *record) {}

// SettleSlices does nothing: leaks are not detected.
func SettleSlices(*Handler) {}

// ledgerForeignPut does nothing: leaks are not detected.
func ledgerForeignPut(key, int) {}
