package nonpointer

import (
	"bytes"
	"sync"
)

var pool sync.Pool

type header struct {
	name  string
	value []byte
}

// --- bad -------------------------------------------------------------------

func badSlice(b []byte) {
	pool.Put(b[:0]) // want `sync.Pool.Put of a non-pointer \[\]byte allocates on every call to box it: put a \*\[\]byte instead, or use reuse.Pool\[\[\]byte\] or reuse.Slices`
}

func badArray(a [64]byte) {
	pool.Put(a) // want `non-pointer \[64\]byte .* put a \*\[64\]byte instead, or use reuse.Pool\[\[64\]byte\]`
}

func badStruct(h header) {
	pool.Put(h) // want `non-pointer header .* put a \*header instead, or use reuse.Pool\[header\]`
}

func badDeferred(b []byte) {
	defer pool.Put(b) // want `non-pointer \[\]byte`
}

func badString(s string) {
	pool.Put(s) // want `non-pointer string`
}

func badEmbedded(p *struct{ sync.Pool }, b []int) {
	p.Put(b) // want `non-pointer \[\]int`
}

// --- clean -----------------------------------------------------------------

func cleanPointer(b *bytes.Buffer) { pool.Put(b) }

func cleanSlicePointer(b *[]byte) { pool.Put(b) }

func cleanMap(m map[string]int) { pool.Put(m) }

func cleanEmpty() { pool.Put(struct{}{}) }

func cleanInterface(v any) { pool.Put(v) }
