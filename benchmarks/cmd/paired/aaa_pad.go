//go:build paired_pad

package main

import "os"

// pad is code that exists only to move the code compiled after it: the
// file's name puts it first in the package, so every function of package
// main, and the pools' generic code instantiated here, lands at another
// address than in the plain binary.
//
//go:noinline
func pad(x uint64) uint64 {
	for i := range 40 {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> (uint(i)%29 + 3)
		x += uint64(i) * 0x9e3779b97f4a7c15
		x = x<<7 | x>>57
		x ^= x * 0xbf58476d1ce4e5b9
		x = x*0x94d049bb133111eb + uint64(i)
		x ^= x >> 5
	}
	return x
}

// padUse keeps pad from being dropped by the linker.
func padUse() {
	if os.Getenv("PAIRED_PAD_NEVER") == "1" {
		sink += int64(pad(uint64(len(os.Args))) + pad2(len(os.Args)) + pad3(len(os.Args)))
	}
}

// pad2 and pad3 move the code after them by two more functions, so that the shift is
// not a multiple of the 64-byte cache line (amd64, Go 1.26: 32 bytes mod
// 128; check with go tool nm).
//
//go:noinline
func pad2(n int) uint64 { return uint64(n) * 0x9e3779b97f4a7c15 }

//go:noinline
func pad3(n int) uint64 { return uint64(n) ^ 0xbf58476d1ce4e5b9 }
