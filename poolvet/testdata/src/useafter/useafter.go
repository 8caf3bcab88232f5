package useafter

import (
	"bytes"
	"io"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/jsonpool"
	"helper"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var bufs = reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }, Reset: (*bytes.Buffer).Reset}

var slices, _ = reuse.NewSlices[byte](1 << 20)

var bb, _ = bytebuf.NewPool(bytebuf.Config{})

type T struct{ N int }

var values jsonpool.Values[T]

func sink(...any) {}

// --- bad -------------------------------------------------------------------

func badDirect() int {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	pool.Put(b)
	return b.Len() // want `b is used after Put at useafter.go:\d+`
}

func badBytes() []byte {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	data := b.Bytes()
	pool.Put(b)
	return data // want `b is used after Put`
}

func badSubslice() byte {
	s := slices.Get(64)
	head := s[:8]
	slices.Put(s)
	return head[0] // want `s is used after Put`
}

func badField() int {
	v := values.Get()
	p := &v.N
	values.Put(v)
	return *p // want `v is used after Put`
}

func badGeneric() {
	b := bufs.Get()
	bufs.Put(b)
	b.WriteString("x") // want `b is used after Put`
}

func badBytebuf() string {
	b := bb.Get()
	bb.Put(b)
	return b.String() // want `b is used after Put`
}

func badConditional(fail bool) {
	b := bufs.Get() // want `not given back`
	if fail {
		bufs.Put(b)
	}
	b.WriteString("x") // want `b is used after Put`
}

func badLoop(n int) {
	b := bufs.Get() // want `not given back`
	for i := 0; i < n; i++ {
		b.WriteString("x") // want `b is used after Put`
		bufs.Put(b)        // want `b is Put twice`
	}
}

func badAlias() {
	b := bufs.Get()
	c := b
	bufs.Put(b)
	c.WriteString("x") // want `b is used after Put`
}

func badInterface() {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	var w io.Writer = b
	pool.Put(b)
	w.Write(nil) // want `b is used after Put`
}

func badHelper() {
	b := helper.Get()
	helper.Release(b)
	b.WriteString("x") // want `b is used after Put`
}

func badHelperDrop() {
	b := helper.Get()
	helper.ReleaseSmall(b)
	b.WriteString("x") // want `b is used after Put`
}

func badMethodHelper(x *helper.Box) { // want badMethodHelper:`releases`
	x.Free()
	x.B.Reset() // want `x is used after Put`
}

func badMethodValue() {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	put := pool.Put
	put(b)
	b.WriteString("x") // want `b is used after Put`
}

func badMethodExpr() {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	(*sync.Pool).Put(&pool, b)
	b.WriteString("x") // want `b is used after Put`
}

func badLocalHelper() {
	b := bufs.Get()
	release(b)
	b.WriteString("x") // want `b is used after Put`
}

// release is declared after its caller.
func release(b *bytes.Buffer) { // want release:`releases`
	bufs.Put(b)
}

func badClosureCaptured() []byte {
	b := bufs.Get()
	f := func() { b.WriteString("x") }
	f()
	bufs.Put(b)
	return b.Bytes() // want `b is used after Put`
}

func badCodecWriter(w io.Writer) {
	zw, _ := gzpool.NewWriter(w, 6)
	zw.Write([]byte("x"))
	zw.Close()
	zw.Flush() // want `zw is used after Close`
}

func badBufio(r io.Reader) {
	br := bufiopool.NewReader(r, 4096)
	br.Close()
	br.ReadByte() // want `br is used after Close`
}

type box struct {
	b    *bytes.Buffer
	data []byte
}

var boxes reuse.Pool[*box]

func (x *box) free() { // want free:`releases`
	boxes.Put(x)
}

func badLocalMethodValue() {
	x := boxes.Get()
	f := x.free
	f()
	x.b.Reset() // want `the \*box is used after Put`
}

func badLocalMethodExpr() {
	x := boxes.Get()
	(*box).free(x)
	x.b.Reset() // want `x is used after Put`
}

func badDeferredLocalMethod() []byte {
	x := boxes.Get()
	defer x.free()
	return x.data[:1] // want `memory of x is returned, but the deferred Put`
}

type conn struct {
	buf  *bytes.Buffer
	name string
}

func (c *conn) refill() { c.buf = bufs.Get() }

func (c *conn) badField() {
	c.buf = bufs.Get()
	bufs.Put(c.buf)
	c.buf.WriteString("x") // want `c.buf is used after Put`
}

func (c *conn) badFieldDouble(fail bool) error {
	defer bufs.Put(c.buf)
	if fail {
		bufs.Put(c.buf) // want `c.buf is Put twice: here and by the deferred Put`
		return io.EOF
	}
	c.buf.WriteString("x")
	return nil
}

func badFieldParam(c *conn) int {
	bufs.Put(c.buf)
	return c.buf.Len() // want `c.buf is used after Put`
}

// --- clean -----------------------------------------------------------------

func cleanReget() {
	b := bufs.Get()
	bufs.Put(b)
	b = bufs.Get()
	b.WriteString("x")
	bufs.Put(b)
}

func cleanCopyFirst() []byte {
	b := bufs.Get()
	b.WriteString("x")
	out := append([]byte(nil), b.Bytes()...)
	bufs.Put(b)
	return out
}

func cleanString() string {
	b := bufs.Get()
	b.WriteString("x")
	s := b.String()
	bufs.Put(b)
	return s
}

func cleanErrorPath(fail bool) error {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		return io.EOF
	}
	b.WriteString("x")
	bufs.Put(b)
	return nil
}

func cleanLoop(n int) {
	for i := 0; i < n; i++ {
		b := bufs.Get()
		b.WriteString("x")
		bufs.Put(b)
	}
}

func cleanPhiReget(fail bool) {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		b = bufs.Get()
	}
	b.WriteString("x")
	bufs.Put(b)
}

func cleanNilCheck() {
	b := bufs.Get()
	bufs.Put(b)
	if b == nil {
		panic("nil")
	}
}

func cleanGoroutine(done chan struct{}) {
	b := bufs.Get()
	b.WriteString("x")
	go func() {
		b.WriteString("y")
		bufs.Put(b)
		close(done)
	}()
}

func cleanDeferClosure() int {
	b := bufs.Get()
	defer func() { bufs.Put(b) }()
	b.WriteString("x")
	return b.Len()
}

func cleanDeferredPut() int {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return b.Len()
}

func cleanMaybeRelease(fail bool) {
	b := helper.Get()
	helper.MaybeRelease(b, fail)
	if !fail {
		b.WriteString("x")
		helper.Release(b)
	}
}

func cleanLengthAfter() int {
	b := bufs.Get()
	b.WriteString("x")
	n := b.Len()
	bufs.Put(b)
	return n
}

func cleanDoubleClose(w io.Writer) error {
	zw, _ := gzpool.NewWriter(w, 6)
	defer zw.Close()
	zw.Write([]byte("x"))
	return zw.Close()
}

func cleanResetPointer() {
	b := bufs.Get()
	bufs.Put(b)
	b = nil
	sink(b)
}

func (c *conn) cleanFieldRestored() {
	bufs.Put(c.buf)
	c.buf = bufs.Get()
	c.buf.WriteString("x")
}

func (c *conn) cleanFieldRefilled() {
	bufs.Put(c.buf)
	c.refill()
	c.buf.WriteString("x")
}

func (c *conn) cleanFieldCleared() {
	bufs.Put(c.buf)
	c.buf = nil
	if c.buf == nil {
		c.name = "closed"
	}
}

func cleanFieldLoop(conns []*conn) {
	for _, c := range conns {
		bufs.Put(c.buf)
		c.buf = nil
	}
}

func cleanFieldOtherHolder(a, b *conn) {
	bufs.Put(a.buf)
	b.buf.WriteString("x")
}
