package reuse_test

import (
	"bytes"
	"fmt"

	"github.com/reuse-go/reuse"
)

// A pool of *bytes.Buffer that hands out empty buffers and refuses to keep
// one that grew past 64 KiB.
func ExamplePool() {
	buffers := reuse.Pool[*bytes.Buffer]{
		New:    func() *bytes.Buffer { return new(bytes.Buffer) },
		Reset:  (*bytes.Buffer).Reset,
		Accept: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 },
	}

	b := buffers.Get()
	b.WriteString("hello, ")
	b.WriteString("world")
	fmt.Println(b.String())
	buffers.Put(b) // b belongs to the pool now: do not touch it again

	big := buffers.Get()
	big.Grow(1 << 20)
	buffers.Put(big) // too large: dropped, not kept

	fmt.Println("dropped:", buffers.Stats().Drops)
	// Output:
	// hello, world
	// dropped: 1
}

// Pooling a value type such as []byte does not allocate on Put, unlike
// storing it in a sync.Pool directly.
func ExamplePool_slice() {
	scratch := reuse.Pool[[]byte]{
		New: func() []byte { return make([]byte, 0, 4096) },
	}
	s := scratch.Get()
	s = append(s[:0], "scratch space"...)
	fmt.Println(len(s), cap(s))
	scratch.Put(s)
	// Output: 13 4096
}

// CountAll turns on counting of every Get and Put, for hit ratios.
func ExampleStats() {
	p := reuse.Pool[*int]{New: func() *int { return new(int) }, CountAll: true}
	x := p.Get() // the pool is empty: New is called
	p.Put(x)
	p.Put(nil) // nil is never kept: a drop
	s := p.Stats()
	fmt.Printf("gets=%d news=%d puts=%d drops=%d\n", s.Gets, s.News, s.Puts, s.Drops)
	// Output: gets=1 news=1 puts=1 drops=1
}
