package heldout

import (
	"bufio"
	"bytes"
	"io"
	"log"
	"sync"
	"unsafe"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/jsonpool"
)

var bufs = reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }, Reset: (*bytes.Buffer).Reset}

var byteSlices, _ = reuse.NewSlices[byte](1 << 20)

var bb, _ = bytebuf.NewPool(bytebuf.Config{})

type record struct {
	Name string
	N    int
}

var records jsonpool.Values[record]

var slicePtrs = sync.Pool{New: func() any { s := make([]byte, 0, 512); return &s }}

// --- bad: use after Put, not in straight-line code --------------------------

// A deferred closure runs after the explicit Put.
func badDeferredClosureUse(w io.Writer) {
	b := bufs.Get()
	defer func() { log.Print(b.Len()) }() // want `after Put`
	b.WriteString("x")
	w.Write(b.Bytes())
	bufs.Put(b)
}

// A goroutine started before the Put may run after it.
func badGoroutineBeforePut(w io.Writer, done chan struct{}) {
	b := bufs.Get()
	b.WriteString("x")
	go func() { w.Write(b.Bytes()); close(done) }() // want `after Put`
	bufs.Put(b)
}

// The arguments of a deferred call are evaluated at once, the call runs at
// return: after the Put.
func badDeferredCallArgs(w io.Writer) {
	b := bufs.Get()
	b.WriteString("x")
	defer w.Write(b.Bytes()) // want `after Put`
	bufs.Put(b)
}

// A closure over the buffer, called after the Put.
func badClosureCalledAfterPut(w io.Writer) {
	b := bufs.Get()
	flush := func() { w.Write(b.Bytes()) }
	b.WriteString("x")
	bufs.Put(b)
	flush() // want `after Put`
}

// A subslice of Bytes, used after the Put.
func badDerivedSubslice(w io.Writer, n int) {
	b := bufs.Get()
	b.WriteString("header and body")
	head := b.Bytes()[:n]
	bufs.Put(b)
	w.Write(head) // want `after Put`
}

// A string that shares the buffer's bytes (unsafe.String), after the Put.
func badDerivedUnsafeString() string {
	b := bufs.Get()
	b.WriteString("x")
	p := b.Bytes()
	s := unsafe.String(&p[0], len(p))
	bufs.Put(b)
	return s // want `after Put`
}

// Ranging over the bytes after the Put.
func badRangeAfterPut() int {
	b := bufs.Get()
	b.WriteString("abc")
	data := b.Bytes()
	bufs.Put(b)
	sum := 0
	for _, c := range data { // want `after Put`
		sum += int(c)
	}
	return sum
}

type result struct {
	data []byte
	n    int
}

// The pooled bytes returned inside a struct after the Put.
func badStructAfterPut() result {
	b := bufs.Get()
	b.WriteString("x")
	r := result{data: b.Bytes(), n: b.Len()}
	bufs.Put(b)
	return r // want `after Put`
}

type holder struct {
	buf *bytes.Buffer
}

// The pooled value itself returned inside a struct after the Put.
func badStructPointerAfterPut() *holder {
	b := bufs.Get()
	h := &holder{buf: b}
	bufs.Put(b)
	return h // want `after Put`
}

// The writer underneath a pooled bufio writer, used after Close: Flush
// writes into the closed gzip handle.
func badBufioOverClosedGzip(w io.Writer) error {
	zw, err := gzpool.NewWriter(w, 1)
	if err != nil {
		return err
	}
	bw := bufiopool.NewWriter(zw, 4096)
	bw.WriteString("x")
	zw.Close()
	err = bw.Flush() // want `after Close`
	bw.Close()
	return err
}

// The same with a bufio.Writer of the standard library.
func badStdBufioOverClosedGzip(w io.Writer) error {
	zw, err := gzpool.NewWriter(w, 1)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString("x")
	zw.Close()
	return bw.Flush() // want `after Close`
}

// A pooled gzip reader read after Close.
func badReaderAfterClose(r io.Reader) ([]byte, error) {
	zr, err := gzpool.NewReader(r)
	if err != nil {
		return nil, err
	}
	zr.Close()
	return io.ReadAll(zr) // want `after Close`
}

// A Put inside a loop, the buffer used again on the next iteration
// (a Put meant for the last iteration only).
func badLoopPutThenUse(w io.Writer, items []string) {
	b := bufs.Get() // want `not given back`
	for i, s := range items {
		b.WriteString(s) // want `after Put`
		if i == len(items)-1 || len(s) > 10 {
			w.Write(b.Bytes()) // want `after Put`
			bufs.Put(b)        // want `Put twice`
		}
	}
}

// From thanos-io/thanos#4792: the capacity of a pooled *[]byte read
// after it went back to the pool.
func badCapAfterPut(used *int) {
	p := slicePtrs.Get().(*[]byte)
	*p = (*p)[:0]
	slicePtrs.Put(p)
	*used -= cap(*p) // want `after Put`
}

// From syncthing/syncthing#7409: the buffer logged after it was Put.
func badLogAfterPut(w io.Writer, n int) {
	buf := byteSlices.Get(n)
	w.Write(buf)
	byteSlices.Put(buf)
	log.Printf("wrote %x", buf[:n]) // want `after Put`
}

// Slices: writing into a slice after Put.
func badSliceWriteAfterPut(n int) {
	s := byteSlices.Get(n)
	byteSlices.Put(s)
	s[0] = 1 // want `after Put`
}

// bytebuf: the bytes returned after Put.
func badBytebufReturnAfterPut(s string) []byte {
	b := bb.Get()
	b.WriteString(s)
	out := b.Bytes()
	bb.Put(b)
	return out // want `after Put`
}

// jsonpool: a field read after Put.
func badJSONFieldAfterPut() string {
	v := records.Get()
	v.Name = "x"
	records.Put(v)
	return v.Name // want `after Put`
}

// --- clean -----------------------------------------------------------------

func cleanCopyBeforePut() []byte {
	b := bufs.Get()
	b.WriteString("x")
	out := append([]byte(nil), b.Bytes()...)
	bufs.Put(b)
	return out
}

func cleanStringCopy() string {
	b := bufs.Get()
	b.WriteString("x")
	s := b.String()
	bufs.Put(b)
	return s
}

func cleanStringConversion() string {
	b := bufs.Get()
	b.WriteString("x")
	s := string(b.Bytes())
	bufs.Put(b)
	return s
}

func cleanDeferredClosurePuts(w io.Writer) {
	b := bufs.Get()
	defer func() { bufs.Put(b) }()
	b.WriteString("x")
	w.Write(b.Bytes())
}

// The goroutine owns the buffer and gives it back itself.
func cleanGoroutineOwns(w io.Writer) {
	b := bufs.Get()
	b.WriteString("x")
	go func() {
		w.Write(b.Bytes())
		bufs.Put(b)
	}()
}

func cleanLenAfterPut(w io.Writer) int {
	b := bufs.Get()
	b.WriteString("x")
	p := b.Bytes()
	w.Write(p)
	bufs.Put(b)
	return len(p)
}

func cleanDeferredCallArgsCopy() {
	b := bufs.Get()
	b.WriteString("x")
	defer log.Print(b.Len())
	bufs.Put(b)
}

func cleanClosureCalledBeforePut(w io.Writer) {
	b := bufs.Get()
	flush := func() { w.Write(b.Bytes()) }
	b.WriteString("x")
	flush()
	bufs.Put(b)
}

func cleanStructWithCopy() result {
	b := bufs.Get()
	b.WriteString("x")
	r := result{data: append([]byte(nil), b.Bytes()...), n: b.Len()}
	bufs.Put(b)
	return r
}

func cleanStructCountOnly() int {
	b := bufs.Get()
	b.WriteString("x")
	r := result{n: b.Len()}
	bufs.Put(b)
	return r.n
}

func cleanBufioFlushedBeforeClose(w io.Writer) error {
	zw, err := gzpool.NewWriter(w, 1)
	if err != nil {
		return err
	}
	bw := bufiopool.NewWriter(zw, 4096)
	bw.WriteString("x")
	if err := bw.Close(); err != nil {
		zw.Close()
		return err
	}
	return zw.Close()
}

func cleanLoopGetsAgain(w io.Writer, items []string) {
	for _, s := range items {
		b := bufs.Get()
		b.WriteString(s)
		w.Write(b.Bytes())
		bufs.Put(b)
	}
}

func cleanLoopReassigned(w io.Writer, items []string) {
	b := bufs.Get()
	for _, s := range items {
		b.WriteString(s)
		w.Write(b.Bytes())
		bufs.Put(b)
		b = bufs.Get()
	}
	bufs.Put(b)
}

func cleanCapBeforePut(used *int) {
	p := slicePtrs.Get().(*[]byte)
	*used += cap(*p)
	*p = (*p)[:0]
	slicePtrs.Put(p)
}

func cleanJSONFieldCopied() string {
	v := records.Get()
	v.Name = "x"
	name := v.Name
	records.Put(v)
	return name
}
