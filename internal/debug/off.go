//go:build !reusedebug

package debug

import "unsafe"

// Enabled is true when the module is built with -tags reusedebug. Pools
// guard every hook with it, and tests that the debug build would break (exact
// allocation counts) skip when it is true.
const Enabled = false

// Leaks is true where leak detection works; it is false in a normal build,
// which detects nothing.
const Leaks = false

// The hooks below exist so that pools compile without the tag. Every call is
// inside "if Enabled", so the compiler removes it; they are never called.

// Put does nothing and returns true in a normal build.
func Put(pool any, obj unsafe.Pointer) bool { return true }

// Got does nothing in a normal build.
func Got(pool any, obj unsafe.Pointer, leaks bool) {}

// Seal does nothing in a normal build.
func Seal(obj unsafe.Pointer, mem []byte, mode Mode) {}

// Check does nothing in a normal build.
func Check(pool any, obj unsafe.Pointer, mem []byte, mode Mode) {}

// Value returns nothing in a normal build.
func Value[T any](x *T) (obj unsafe.Pointer, mem []byte, leaks bool) { return nil, nil, false }

// Slice returns nothing in a normal build.
func Slice[E any](s []E) (obj unsafe.Pointer, mem []byte, mode Mode) { return nil, nil, Snapshot }

// Tracked returns 0 in a normal build.
func Tracked() int { return 0 }

// PutPtr does nothing and returns true in a normal build.
func PutPtr[T any](pool any, x *T) bool { return true }

// GotPtr does nothing in a normal build.
func GotPtr[T any](pool any, x *T) {}

// Discard does nothing in a normal build.
func Discard(pool any, obj unsafe.Pointer) {}

// DiscardPtr does nothing in a normal build.
func DiscardPtr[T any](pool any, x *T) {}

// SealPoison does nothing in a normal build.
func SealPoison[T any](x *T, mem []byte) {}

// GotPoisoned does nothing in a normal build.
func GotPoisoned[T any](pool any, x *T, mem []byte) {}

// SealBytes does nothing in a normal build.
func SealBytes(b []byte) {}

// CheckBytes does nothing in a normal build.
func CheckBytes(pool any, b []byte) {}

// PutSlice does nothing and returns true in a normal build.
func PutSlice(pool any, obj unsafe.Pointer, capBytes int) bool { return true }

// GotSlice does nothing in a normal build.
func GotSlice(pool any, obj unsafe.Pointer, capBytes int) {}

// SettleSlices does nothing in a normal build.
func SettleSlices(h *Handler) {}

// Name does nothing in a normal build.
func Name(pool any, name string) {}

// Live does nothing in a normal build. Unlike the hooks above it is called
// unguarded, from one-line methods (bytebuf.Buffer.Len): empty, it inlines
// to nothing.
func Live(obj unsafe.Pointer) {}
