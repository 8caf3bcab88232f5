package bytebuf

import "unsafe"

// Every use of package unsafe in bytebuf is in this file, with the invariant
// it relies on.

// arrayOf returns the array of size bytes that starts at ptr, as an empty
// slice of that capacity. Invariant: ptr is the first byte of an array of at
// least size bytes that the pool keeps (a large-array slot holds the first
// byte of an array whose capacity is exactly its class size), so the slice
// reaches no memory outside it.
func arrayOf(ptr *byte, size int) []byte {
	return unsafe.Slice(ptr, size)[:0]
}

// firstByte returns a pointer to the first byte of buf's array, which keeps
// the whole array alive. Invariant: cap(buf) > 0.
func firstByte(buf []byte) *byte {
	return unsafe.SliceData(buf[:1])
}

// stackHash returns a hash of the address of a variable of the caller's
// stack frame: it differs between goroutines, which have stacks of their
// own, and costs no runtime call. The address is only hashed, never turned
// back into a pointer. A 64-bit Fibonacci hash on every platform: the
// constant does not fit a 32-bit uintptr.
func stackHash(marker *byte) uint64 {
	return uint64(uintptr(unsafe.Pointer(marker))>>13) * 0x9E3779B97F4A7C15
}
