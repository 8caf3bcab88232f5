// Package leak holds values taken from a pool and not given back on a path
// that returns (the leak check, on by default).
package leak

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

var bufs reuse.Pool[*bytes.Buffer]

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var bb *bytebuf.Pool

var errBad = errors.New("bad")

var kept *bytes.Buffer

// --- bad -------------------------------------------------------------------

func badEarlyReturn(w io.Writer, fail bool) error {
	b := bufs.Get() // want `value taken from the pool is not given back on the path to the return at leak.go:\d+`
	if fail {
		return errBad
	}
	b.WriteString("x")
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

func badNeverPut(w io.Writer) {
	b := pool.Get().(*bytes.Buffer) // want `not given back`
	b.Reset()
	b.WriteString("x")
	w.Write(b.Bytes())
}

func badBytebuf(w io.Writer, fail bool) error {
	b := bb.Get() // want `not given back`
	b.WriteString("x")
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	bb.Put(b)
	return nil
}

// --- clean -----------------------------------------------------------------

func cleanAllPaths(w io.Writer, fail bool) error {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		return errBad
	}
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

func cleanDefer(w io.Writer) error {
	b := bufs.Get()
	defer bufs.Put(b)
	_, err := w.Write(b.Bytes())
	return err
}

func cleanReturned() *bytes.Buffer {
	b := bufs.Get()
	b.WriteString("x")
	return b
}

func cleanStored() {
	b := bufs.Get()
	kept = b
}

func cleanPassed(f func(*bytes.Buffer)) {
	b := bufs.Get()
	f(b)
}

func cleanPanics() {
	b := bufs.Get()
	if b.Len() > 0 {
		panic("dirty")
	}
	bufs.Put(b)
}

func cleanDeferClosure() {
	b := bufs.Get()
	defer func() { bufs.Put(b) }()
	b.WriteString("x")
}

var bytesOf, _ = reuse.NewSlices[byte](1 << 20)

// sp.Put(s[:0]) gives back s: not a leak (it was reported as one).
func cleanPutEmptied(items []string) int {
	s := bytesOf.Get(0)
	for _, it := range items {
		s = append(s, it...)
	}
	n := len(s)
	bytesOf.Put(s[:0])
	return n
}

func badSlicesEarlyReturn(items []string) int {
	s := bytesOf.Get(0) // want `not given back`
	for _, it := range items {
		if it == "" {
			return -1
		}
		s = append(s, it...)
	}
	n := len(s)
	bytesOf.Put(s[:0])
	return n
}
