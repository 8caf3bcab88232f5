// Package bytebufferpool is a reduced copy of github.com/valyala/bytebufferpool
// v1.0.0 (pool.go, bytebuffer.go): a Pool over a sync.Pool that calibrates
// the largest size it keeps, and Get and Put over a default Pool.
package bytebufferpool

import (
	"sync"
	"sync/atomic"
)

// ByteBuffer is a byte buffer for append-like workloads.
type ByteBuffer struct {
	B []byte
}

// Reset makes the buffer empty.
func (b *ByteBuffer) Reset() { b.B = b.B[:0] } // want Reset:`borrows\(\[0\]\)`

// Write appends p.
func (b *ByteBuffer) Write(p []byte) (int, error) { // want Write:`borrows\(\[0 1\]\)`
	b.B = append(b.B, p...)
	return len(p), nil
}

// Bytes returns b.B.
func (b *ByteBuffer) Bytes() []byte { return b.B }

const calibrateCallsThreshold = 42000

// Pool is a pool of ByteBuffers.
type Pool struct {
	calls       [20]uint64
	calibrating uint64
	defaultSize uint64
	maxSize     uint64
	pool        sync.Pool
}

var defaultPool Pool

// Get returns an empty buffer from the default pool.
func Get() *ByteBuffer { return defaultPool.Get() } // want Get:`releases\(put=\[\], close=\[\], takes=\[0\]\)`

// Get returns a new buffer or one from the pool.
func (p *Pool) Get() *ByteBuffer { // want Get:`releases\(put=\[\], close=\[\], takes=\[0\]\)` Get:`borrows\(\[0\]\)`
	v := p.pool.Get()
	if v != nil {
		return v.(*ByteBuffer)
	}
	return &ByteBuffer{B: make([]byte, 0, atomic.LoadUint64(&p.defaultSize))}
}

// Put gives b back to the default pool.
func Put(b *ByteBuffer) { defaultPool.Put(b) } // want Put:`releases\(put=\[0\], close=\[\]\)`

// Put gives b back, unless it is larger than the pool keeps.
func (p *Pool) Put(b *ByteBuffer) { // want Put:`releases\(put=\[1\], close=\[\]\)` Put:`borrows\(\[0\]\)`
	idx := index(len(b.B))
	if atomic.AddUint64(&p.calls[idx], 1) > calibrateCallsThreshold {
		p.calibrate()
	}
	maxSize := int(atomic.LoadUint64(&p.maxSize))
	if maxSize == 0 || cap(b.B) <= maxSize {
		b.Reset()
		p.pool.Put(b)
	}
}

func (p *Pool) calibrate() { // want calibrate:`borrows\(\[0\]\)`
	if !atomic.CompareAndSwapUint64(&p.calibrating, 0, 1) {
		return
	}
	atomic.StoreUint64(&p.maxSize, 1<<16)
	atomic.StoreUint64(&p.calibrating, 0)
}

func index(n int) int {
	n--
	n >>= 6
	idx := 0
	for n > 0 {
		n >>= 1
		idx++
	}
	if idx >= 20 {
		idx = 19
	}
	return idx
}
