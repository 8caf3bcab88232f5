package fix

import (
	"sync"
	"unsafe"
)

type buffer struct{ b []byte }

func (b *buffer) Bytes() []byte { return b.b }

func (b *buffer) Write(p []byte) { b.b = append(b.b, p...) }

var out = sync.Pool{New: func() any { return new(buffer) }}

func encode(p []byte) []byte {
	b := out.Get().(*buffer)
	b.b = b.b[:0]
	defer out.Put(b)
	b.Write(p)
	return b.Bytes() // want `memory of b is returned, but the deferred Put`
}

func encodeErr(p []byte) ([]byte, error) {
	b := out.Get().(*buffer)
	b.b = b.b[:0]
	defer out.Put(b)
	b.Write(p)
	return b.Bytes()[:len(p)], nil // want `memory of b is returned, but the deferred Put`
}

var words = sync.Pool{New: func() any { s := make([]string, 0, 8); return &s }}

func split(p string) []string {
	s := words.Get().(*[]string)
	*s = (*s)[:0]
	defer words.Put(s)
	*s = append(*s, p)
	return *s // want `memory of s is returned, but the deferred Put`
}

// A named result assigned and then returned: the copy belongs at the
// assignment, which is not a return; no fix.
func encodeNamed(p []byte) (res []byte) {
	b := out.Get().(*buffer)
	b.b = b.b[:0]
	defer out.Put(b)
	b.Write(p)
	res = b.Bytes() // want `memory of b is returned, but the deferred Put`
	return res
}

// bytes names a local variable here: bytes.Clone would not compile.
func encodeShadowed(p []byte) []byte {
	bytes := out.Get().(*buffer)
	bytes.b = bytes.b[:0]
	defer out.Put(bytes)
	bytes.Write(p)
	return bytes.Bytes() // want `memory of bytes is returned, but the deferred Put`
}

var ptrs = sync.Pool{New: func() any { s := make([]*buffer, 0, 8); return &s }}

// The elements are pointers: a copy of the slice shares what they point
// to, so no fix.
func collect(b *buffer) []*buffer {
	s := ptrs.Get().(*[]*buffer)
	*s = append((*s)[:0], b)
	defer ptrs.Put(s)
	return *s // want `memory of s is returned, but the deferred Put`
}

// A string over the buffer's bytes, made with package unsafe.
func name(p []byte) string {
	b := out.Get().(*buffer)
	b.b = b.b[:0]
	defer out.Put(b)
	b.Write(p)
	return unsafe.String(unsafe.SliceData(b.b), len(b.b)) // want `memory of b is returned, but the deferred Put`
}
