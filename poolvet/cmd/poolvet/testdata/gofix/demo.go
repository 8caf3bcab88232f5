// Package demo has three pool mistakes that poolvet can fix.
package demo

import (
	"bytes"
	"sync"
)

var scratch = sync.Pool{New: func() any { return make([]byte, 0, 4096) }}

// Sum adds the bytes of p, through a scratch copy.
func Sum(p []byte) int {
	b := scratch.Get().([]byte)
	b = append(b[:0], p...)
	n := 0
	for _, c := range b {
		n += int(c)
	}
	scratch.Put(b[:0])
	return n
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Quote returns s in quotes.
func Quote(s string) []byte {
	b := bufs.Get().(*bytes.Buffer)
	defer bufs.Put(b)
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
	return b.Bytes()
}
