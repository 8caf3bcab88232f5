// Package stripe provides counters kept per processor (P), in cells padded to
// 128 bytes, so that counting on the hot path costs no locked instruction and
// no shared cache line.
//
// Add pins the calling goroutine to its P for the duration of the increment,
// as sync.Pool does for its per-P caches, so each cell has a single writer at a
// time and the increment is a plain add: no LOCK prefix (even an atomic store
// is a locked XCHG on amd64). Sum reads the cells with atomic loads; on 64-bit
// platforms a word-sized plain store is never torn, so a concurrent Sum sees
// each cell's old or new value. Under the race detector, under TinyGo and on
// 32-bit platforms, Add uses atomic adds on one cell instead. A P numbered beyond the cells
// allocated (GOMAXPROCS raised after New) shares one extra cell that is always
// updated with atomic adds.
package stripe

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/pin"
)

// plainAdd is true where the owner of a cell may update it without atomics.
const plainAdd = pin.OK && unsafe.Sizeof(uintptr(0)) == 8

// Width is how many counters each cell holds.
const Width = 4

// cell is padded to 128 bytes: two cache lines, because adjacent-line
// prefetching on x86 makes 64-byte padding share in practice.
type cell struct {
	n [Width]uint64 // written by the owning P, read with atomic loads
	_ [128 - Width*8]byte
}

// Counters is a set of Width counters kept per P.
// Counters must be created by New; it is safe for use by multiple goroutines.
type Counters struct {
	// cells has one cell per P at the time of New, then the shared overflow cell.
	cells []cell
}

// New returns counters with one cell per P (GOMAXPROCS at the time of the call)
// and one shared cell.
func New() *Counters {
	return &Counters{cells: make([]cell, runtime.GOMAXPROCS(0)+1)}
}

// Add adds one to counter i (0 <= i < Width).
func (c *Counters) Add(i int) {
	if !plainAdd {
		atomic.AddUint64(&c.cells[0].n[i], 1)
		return
	}
	pid := pin.Pin()
	if last := len(c.cells) - 1; pid >= last {
		atomic.AddUint64(&c.cells[last].n[i], 1)
	} else {
		// Pinned: no other goroutine writes this cell until Unpin.
		c.cells[pid].n[i]++
	}
	pin.Unpin()
}

// Sum returns the total of counter i over all cells. Under concurrent Adds it
// is a snapshot that may miss increments in flight.
func (c *Counters) Sum(i int) uint64 {
	var s uint64
	for k := range c.cells {
		s += atomic.LoadUint64(&c.cells[k].n[i])
	}
	return s
}
