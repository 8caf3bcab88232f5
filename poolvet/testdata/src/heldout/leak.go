package heldout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/reuse-go/reuse/gzpool"
)

var rawBufs = sync.Pool{New: func() any { s := make([]byte, 4096); return &s }}

var kept *bytes.Buffer

// --- bad: Get with no Put on some path ---------------------------------

// From facebook/dhcplb#3 and jaegertracing/jaeger#2609: the read error
// returns without giving the buffer back.
func badLeakReadError(r io.Reader, out chan<- int) error {
	p := rawBufs.Get().(*[]byte) // want `not given back`
	n, err := r.Read(*p)
	if err != nil {
		return err
	}
	out <- n
	rawBufs.Put(p)
	return nil
}

// An early return on a validation error.
func badLeakEarlyReturn(w io.Writer, s string) error {
	b := bufs.Get() // want `not given back`
	if s == "" {
		return errBad
	}
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

// From meilisearch/meilisearch-go#623: the buffer written through fmt, and
// the error of the write returned without a Put.
func badLeakAfterFprintf(w io.Writer, v int) error {
	b := bufs.Get() // want `not given back`
	fmt.Fprintf(b, "v=%d", v)
	if _, err := w.Write(b.Bytes()); err != nil {
		return err
	}
	bufs.Put(b)
	return nil
}

// Slices: the error path returns without Put.
func badLeakSlices(r io.Reader) (int, error) {
	s := byteSlices.Get(512) // want `not given back`
	n, err := io.ReadFull(r, s)
	if err != nil {
		return n, err
	}
	byteSlices.Put(s[:0])
	return n, nil
}

// Slices: the slice grown with append, given back on one path only.
func badLeakSlicesAppend(items []string) int {
	s := byteSlices.Get(0) // want `not given back`
	for _, it := range items {
		s = append(s, it...)
	}
	if len(s) > 100 {
		return -1
	}
	n := len(s)
	byteSlices.Put(s)
	return n
}

// bytebuf: the loop continues past an error without a Put.
func badLeakBytebufLoop(w io.Writer, items []string) {
	for _, it := range items {
		b := bb.Get() // want `not given back`
		b.WriteString(it)
		if _, err := w.Write(b.Bytes()); err != nil {
			continue
		}
		bb.Put(b)
	}
}

// jsonpool: the value decoded into, and the decode error returned without
// a Put.
func badLeakJSONDecode(data []byte) (int, error) {
	v := records.Get() // want `not given back`
	if err := json.Unmarshal(data, v); err != nil {
		return 0, err
	}
	n := v.N
	records.Put(v)
	return n, nil
}

// One case of a switch returns without a Put.
func badLeakSwitchCase(w io.Writer, mode int) error {
	b := bufs.Get() // want `not given back`
	switch mode {
	case 0:
		return errBad
	case 1:
		b.WriteString("one")
	}
	_, err := w.Write(b.Bytes())
	bufs.Put(b)
	return err
}

// A pooled gzip handle not closed on the error path.
func badLeakGzipHandle(w io.Writer, p []byte) error {
	zw, err := gzpool.NewWriter(w, 1) // want `not given back|not closed|Close`
	if err != nil {
		return err
	}
	if _, err := zw.Write(p); err != nil {
		return err
	}
	return zw.Close()
}

// --- clean -----------------------------------------------------------------

func consume(b *bytes.Buffer) { kept = b }

// Handed to a callee, which owns it from then on.
func cleanLeakHandedToCallee(s string) {
	b := bufs.Get()
	b.WriteString(s)
	consume(b)
}

type conn struct {
	buf *bytes.Buffer
	raw []byte
}

// Stored in a field: the struct owns it.
func (c *conn) cleanLeakStoredInField(s string) {
	b := bufs.Get()
	b.WriteString(s)
	c.buf = b
}

func (c *conn) cleanLeakSliceStoredInField(n int) {
	c.raw = byteSlices.Get(n)
}

func cleanLeakReturned(s string) *bytes.Buffer {
	b := bufs.Get()
	b.WriteString(s)
	return b
}

// sp.Put(s[:0]) gives back s.
func cleanLeakPutEmptied(items []string) int {
	s := byteSlices.Get(0)
	for _, it := range items {
		s = append(s, it...)
	}
	n := len(s)
	byteSlices.Put(s[:0])
	return n
}

func cleanLeakDeferredPut(w io.Writer, s string) error {
	b := bufs.Get()
	defer bufs.Put(b)
	if s == "" {
		return errBad
	}
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	return err
}

func cleanLeakPutOnErrorToo(r io.Reader) error {
	p := rawBufs.Get().(*[]byte)
	if _, err := r.Read(*p); err != nil {
		rawBufs.Put(p)
		return err
	}
	rawBufs.Put(p)
	return nil
}

func cleanLeakGoroutineOwns(w io.Writer, s string) {
	b := bufs.Get()
	b.WriteString(s)
	go func() {
		w.Write(b.Bytes())
		bufs.Put(b)
	}()
}

func cleanLeakHelperPuts(w io.Writer, s string) {
	b := bufs.Get()
	b.WriteString(s)
	w.Write(b.Bytes())
	release(b)
}

// Handed on along one path, given back on the other.
func cleanLeakHandedOrPut(s string, keep bool) {
	b := bufs.Get()
	b.WriteString(s)
	if keep {
		consume(b)
		return
	}
	bufs.Put(b)
}

func cleanLeakSent(ch chan<- *bytes.Buffer) {
	b := bufs.Get()
	ch <- b
}

func cleanLeakPanics(s string) {
	b := bufs.Get()
	if s == "" {
		panic("empty")
	}
	b.WriteString(s)
	bufs.Put(b)
}

func cleanLeakGzipClosed(w io.Writer, p []byte) error {
	zw, err := gzpool.NewWriter(w, 1)
	if err != nil {
		return err
	}
	if _, err := zw.Write(p); err != nil {
		zw.Close()
		return err
	}
	return zw.Close()
}

func cleanLeakJSONDecode(data []byte) (int, error) {
	v := records.Get()
	defer records.Put(v)
	if err := json.Unmarshal(data, v); err != nil {
		return 0, err
	}
	return v.N, nil
}
