package reuse_test

import (
	"fmt"

	"github.com/reuse-go/reuse"
)

// A Slices hands out slices of the length asked for, with the capacity of its
// size class, and takes them back by capacity.
func ExampleSlices() {
	var scratch reuse.Slices[byte] // ready to use: keeps arrays up to 1 MiB

	b := scratch.Get(1000) // len 1000, cap 1024: its size class
	fmt.Println(len(b), cap(b))
	n := copy(b, "hello, world") // a pooled slice holds old data: write before reading
	fmt.Println(string(b[:n]))
	scratch.Put(b) // b belongs to the pool now: do not touch it again

	huge := scratch.Get(4 << 20) // above MaxCap: a fresh slice...
	scratch.Put(huge)            // ...that Put drops
	fmt.Println("drops:", scratch.Stats().Drops)
	// Output:
	// 1000 1024
	// hello, world
	// drops: 1
}

// With Zero set, Put clears each slice, so Get behaves like make and secrets
// do not stay in the pool.
func ExampleSlices_zero() {
	keys, err := reuse.NewSlices[byte](4096)
	if err != nil {
		panic(err)
	}
	keys.Zero = true

	k := keys.Get(32)
	copy(k, "0123456789abcdef0123456789abcdef")
	keys.Put(k) // cleared before it is kept

	k = keys.Get(32)
	fmt.Println(k[0], k[31])
	// Output: 0 0
}

// NewSlices rejects a configuration that makes no sense.
func ExampleNewSlices() {
	_, err := reuse.NewSlices[int](-1)
	fmt.Println(err)
	// Output: reuse: invalid Slices configuration: negative MaxCap -1
}
