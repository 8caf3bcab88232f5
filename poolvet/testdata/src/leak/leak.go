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

// --- borrowing callees -------------------------------------------------------

// A function of the package that only reads or writes into the value it
// is handed (a parser, an Unmarshal method) borrows it: the caller still
// owns it, and must give it back on its error paths too.

type header struct{ typ, size int }

// unmarshal borrows b: it reads it and keeps nothing.
func (h *header) unmarshal(b []byte) error {
	if len(b) < 2 {
		return errBad
	}
	h.typ, h.size = int(b[0]), int(b[1])
	return skip(b[2:])
}

func skip(b []byte) error {
	for _, c := range b {
		if c != 0 {
			return errBad
		}
	}
	return nil
}

// parse borrows b through unmarshal.
func parse(b []byte) (header, error) {
	var h header
	err := h.unmarshal(b)
	return h, err
}

// fill borrows b: it writes into it.
func fill(b *bytes.Buffer, n int) error {
	if n < 0 {
		return errBad
	}
	for range n {
		b.WriteByte('x')
	}
	return nil
}

// countdown borrows b, calling itself.
func countdown(b *bytes.Buffer, n int) error {
	if n == 0 {
		return nil
	}
	b.WriteByte('x')
	return countdown(b, n-1)
}

func badAfterUnmarshal(r io.Reader, n int) (header, error) {
	buf := bytesOf.Get(n) // want `not given back on the path to the return`
	if _, err := io.ReadFull(r, buf); err != nil {
		bytesOf.Put(buf[:0])
		return header{}, err
	}
	var h header
	if err := h.unmarshal(buf); err != nil {
		return header{}, err
	}
	bytesOf.Put(buf[:0])
	return h, nil
}

func badAfterParse(buf []byte) (header, error) {
	s := bytesOf.Get(len(buf)) // want `not given back`
	copy(s, buf)
	h, err := parse(s)
	if err != nil {
		return h, err
	}
	bytesOf.Put(s[:0])
	return h, nil
}

func badAfterFill(w io.Writer, n int) error {
	b := bufs.Get() // want `not given back`
	if err := fill(b, n); err != nil {
		return err
	}
	if err := countdown(b, n); err != nil {
		bufs.Put(b)
		return err
	}
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

func cleanAfterUnmarshal(r io.Reader, n int) (header, error) {
	buf := bytesOf.Get(n)
	defer bytesOf.Put(buf[:0])
	if _, err := io.ReadFull(r, buf); err != nil {
		return header{}, err
	}
	var h header
	err := h.unmarshal(buf)
	return h, err
}

// Callees that keep what they are handed: the caller gives it up.

var queue = make(chan *bytes.Buffer, 1)

var held [][]byte

func keep(b *bytes.Buffer) error { kept = b; return nil }

func enqueue(b *bytes.Buffer) error {
	select {
	case queue <- b:
		return nil
	default:
		return errBad
	}
}

func spawn(b *bytes.Buffer) error {
	go func() { kept = b }()
	return nil
}

func forward(b *bytes.Buffer) error { return keep(b) }

func releaseOnErr(b *bytes.Buffer, fail bool) error {
	if fail {
		bufs.Put(b)
		return errBad
	}
	return nil
}

func head(b []byte) ([]byte, error) {
	if len(b) < 2 {
		return nil, errBad
	}
	return b[:2], nil
}

func hold(b []byte) error { held = append(held, b[1:]); return nil }

type box struct{ b *bytes.Buffer }

func (x *box) adopt(b *bytes.Buffer) error { x.b = b; return nil }

func cleanKept() error {
	b := bufs.Get()
	if err := keep(b); err != nil {
		return err
	}
	return nil
}

func cleanEnqueued() error {
	b := bufs.Get()
	if err := enqueue(b); err != nil {
		return err
	}
	return nil
}

func cleanSpawned() error {
	b := bufs.Get()
	if err := spawn(b); err != nil {
		return err
	}
	return nil
}

func cleanForwarded() error {
	b := bufs.Get()
	if err := forward(b); err != nil {
		return err
	}
	return nil
}

func cleanReleasedOnErr(w io.Writer, fail bool) error {
	b := bufs.Get()
	if err := releaseOnErr(b, fail); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

func cleanHead(n int) ([]byte, error) {
	s := bytesOf.Get(n)
	h, err := head(s)
	if err != nil {
		return nil, err
	}
	return h, nil
}

func cleanHeld(n int) error {
	s := bytesOf.Get(n)
	if err := hold(s); err != nil {
		return err
	}
	return nil
}

func cleanAdopted(x *box) error {
	b := bufs.Get()
	if err := x.adopt(b); err != nil {
		return err
	}
	return nil
}

// tail keeps a subslice of b in a local a closure captures, and returns
// it: it does not borrow b.
func tail(b []byte) ([]byte, error) {
	t := b[1:]
	check := func() bool { return len(t) > 0 }
	if !check() {
		return nil, errBad
	}
	return t, nil
}

func cleanTail(n int) ([]byte, error) {
	s := bytesOf.Get(n)
	t, err := tail(s)
	if err != nil {
		return nil, err
	}
	return t, nil
}
