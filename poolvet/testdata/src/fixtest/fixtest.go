// Package fixtest has a pool of non-pointers that its test file Puts into
// in a form the rewrite does not know: the build without the test file
// must not rewrite the pool either.
package fixtest

import "sync"

var scratch = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func use() int {
	b := scratch.Get().([]byte)
	n := cap(b)
	scratch.Put(b[:0]) // want `non-pointer \[\]byte`
	return n
}
