// Package helper gives pooled values back on behalf of its callers, so
// that the checks must follow facts across packages.
package helper

import (
	"bytes"
	"sync"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Get takes a buffer from the pool.
func Get() *bytes.Buffer { // want Get:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Release gives b back.
func Release(b *bytes.Buffer) { // want Release:`releases\(put=\[0\], close=\[\]\)`
	pool.Put(b)
}

// ReleaseSmall drops large buffers and gives back the rest: either way
// the caller no longer owns b.
func ReleaseSmall(b *bytes.Buffer) { // want ReleaseSmall:`releases\(put=\[0\], close=\[\]\)`
	if b.Cap() > 64<<10 {
		return
	}
	Release(b)
}

// MaybeRelease gives b back only on failure: it has no fact.
func MaybeRelease(b *bytes.Buffer, failed bool) {
	if failed {
		pool.Put(b)
	}
}

// Box holds a pooled buffer.
type Box struct{ B *bytes.Buffer }

// Free gives the box's buffer back; a method, so the receiver is 0.
func (x *Box) Free() { // want Free:`releases\(put=\[0\], close=\[\]\)`
	boxes.Put(x)
}

var boxes sync.Pool
