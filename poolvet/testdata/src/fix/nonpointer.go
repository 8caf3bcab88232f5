package fix

import "sync"

// bufs is used only through its New, Gets and Puts: the fix keeps a
// *[]byte in it.
var bufs = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func appendTwice(p []byte) int {
	b := bufs.Get().([]byte)
	b = append(b, p...)
	b = append(b, p...)
	n := len(b)
	bufs.Put(b[:0]) // want `sync.Pool.Put of a non-pointer \[\]byte allocates`
	return n
}

func deferred(p []byte) int {
	b := bufs.Get().([]byte)
	defer bufs.Put(b) // want `sync.Pool.Put of a non-pointer \[\]byte allocates`
	return copy(b[:cap(b)], p)
}

func onError(p []byte, fail bool) int {
	b := bufs.Get().([]byte)
	if fail {
		bufs.Put(b) // want `sync.Pool.Put of a non-pointer \[\]byte allocates`
		return 0
	}
	b = append(b[:0], p...)
	n := len(b)
	bufs.Put(b[:0]) // want `sync.Pool.Put of a non-pointer \[\]byte allocates`
	return n
}

func peek() int {
	b := bufs.Get().([]byte)
	return cap(b)
}

// lines has a Put of a value that no Get of the same function took: a
// rewrite to Put(&b) would still allocate, so no fix, only the message.
var lines = sync.Pool{New: func() any { return make([]string, 0, 8) }}

func getLines() []string { return lines.Get().([]string) }

func putLines(s []string) {
	lines.Put(s[:0]) // want `non-pointer \[\]string .* reuse.Pool\[\[\]string\]`
}

// Exported may be used by other packages: no fix.
var Exported = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func useExported() {
	b := Exported.Get().([]byte)
	Exported.Put(b[:0]) // want `non-pointer \[\]byte`
}

// passed is handed to a function: not every use is a Get or a Put.
var passed = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func usePassed() {
	b := passed.Get().([]byte)
	passed.Put(b[:0]) // want `non-pointer \[\]byte`
	inspect(&passed)
}

func inspect(*sync.Pool) {}

// grown is put back by a deferred Put after the variable changed: the
// pointer would put back the old slice, so no fix.
var grown = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func useGrown(p []byte) int {
	b := grown.Get().([]byte)
	b = append(b, p...)
	defer grown.Put(b) // want `non-pointer \[\]byte`
	return len(b)
}

// A pool held through a pointer, of an array.
var blocks = &sync.Pool{
	New: func() any {
		return [16]byte{}
	},
}

func checksum(p []byte) byte {
	b := blocks.Get().([16]byte)
	copy(b[:], p)
	var x byte
	for _, c := range b {
		x ^= c
	}
	blocks.Put(b) // want `non-pointer \[16\]byte`
	return x
}
