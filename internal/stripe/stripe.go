// Package stripe provides counters split over cache-line-padded cells, so that
// goroutines running on different processors rarely write the same cache line.
//
// A cell is picked from the address of the caller's stack, which differs
// between goroutines and costs no call into the runtime. Two goroutines may
// share a cell; the counts stay exact because every cell is updated atomically.
package stripe

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Width is how many counters each cell holds.
const Width = 4

// cell is padded to 128 bytes: two cache lines, because adjacent-line
// prefetching on x86 makes 64-byte padding share in practice.
type cell struct {
	n [Width]atomic.Uint64
	_ [128 - Width*8]byte
}

// Counters is a set of Width counters striped over cells.
// Counters must be created by New; it is safe for use by multiple goroutines.
type Counters struct {
	cells []cell
	mask  uintptr
}

// New returns counters with one cell per processor, rounded up to a power of
// two, between 2 and 64 cells.
func New() *Counters {
	n := 2
	for n < runtime.GOMAXPROCS(0) && n < 64 {
		n <<= 1
	}
	return &Counters{cells: make([]cell, n), mask: uintptr(n - 1)}
}

// Add adds one to counter i (0 <= i < Width).
func (c *Counters) Add(i int) {
	var marker byte
	// Goroutine stacks start at least 8 KiB apart; mix the bits above that.
	h := (uintptr(unsafe.Pointer(&marker)) >> 13) * 0x9E3779B97F4A7C15
	c.cells[(h>>(unsafe.Sizeof(h)*8-6))&c.mask].n[i].Add(1)
}

// Sum returns the total of counter i over all cells.
func (c *Counters) Sum(i int) uint64 {
	var s uint64
	for k := range c.cells {
		s += c.cells[k].n[i].Load()
	}
	return s
}
