// Package other has a pool of non-pointers whose test puts a value no Get
// of its function took: no fix may rewrite the pool.
package other

import "sync"

var scratch = sync.Pool{New: func() any { return make([]byte, 0, 4096) }}

// Len returns the capacity of a scratch buffer.
func Len() int {
	b := scratch.Get().([]byte)
	n := cap(b)
	scratch.Put(b[:0])
	return n
}
