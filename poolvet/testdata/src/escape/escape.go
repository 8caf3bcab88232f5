package escape

import (
	"bytes"
	"io"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/gzpool"
)

var bufs reuse.Pool[*bytes.Buffer]

var bb *bytebuf.Pool

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var last []byte

type Request struct {
	Body []byte
	buf  *bytes.Buffer
}

// --- bad -------------------------------------------------------------------

func badDeferReturnBytes() []byte {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return b.Bytes() // want `memory of b is returned, but the deferred Put at escape.go:\d+ gives it back`
}

func badDeferReturnValue() *bytes.Buffer {
	b := bufs.Get()
	defer bufs.Put(b)
	return b // want `b is returned, but the deferred Put`
}

func badDeferClosureReturn() []byte {
	b := bb.Get()
	defer func() { bb.Put(b) }()
	b.WriteString("x")
	return b.Bytes() // want `memory of b is returned, but the deferred Put`
}

func badDeferNamedResult() (out []byte, err error) {
	b := bufs.Get()
	defer bufs.Put(b)
	out = b.Bytes()[:1] // want `memory of b is returned, but the deferred Put`
	return
}

func badDeferStoreField(r *Request) {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	r.Body = b.Bytes() // want `memory of b is stored, but the deferred Put`
}

func badDeferGlobal() {
	b := bufs.Get()
	defer bufs.Put(b)
	last = b.Bytes() // want `memory of b is stored, but the deferred Put`
}

func badDeferSend(ch chan []byte) {
	b := bufs.Get()
	defer bufs.Put(b)
	ch <- b.Bytes() // want `memory of b is sent, but the deferred Put`
}

func badDeferCloseReturn(w io.Writer) *gzpool.Writer {
	zw, _ := gzpool.NewWriter(w, 6)
	defer zw.Close()
	return zw // want `zw is returned, but the deferred Close`
}

func badStoreThenPut(r *Request) {
	b := bufs.Get()
	b.WriteString("x")
	r.Body = b.Bytes() // want `memory of b escapes, but b is Put at escape.go:\d+`
	bufs.Put(b)
}

func badSendThenPut(ch chan *bytes.Buffer) {
	b := bufs.Get()
	ch <- b // want `b escapes, but b is Put`
	bufs.Put(b)
}

func badMapThenPut(m map[string][]byte) {
	b := bufs.Get()
	m["k"] = b.Bytes() // want `memory of b escapes`
	bufs.Put(b)
}

func badSliceOfPooled(s *reuse.Slices[byte], r *Request) {
	x := s.Get(16)
	r.Body = x[:4] // want `memory of x escapes`
	s.Put(x)
}

// --- clean -----------------------------------------------------------------

func cleanDeferReturnCopy() []byte {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return bytes.Clone(b.Bytes())
}

func cleanDeferReturnString() string {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return b.String()
}

func cleanDeferAppend(dst []byte) []byte {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return append(dst, b.Bytes()...)
}

func cleanDeferLen() (int, error) {
	b := bufs.Get()
	defer bufs.Put(b)
	return b.Write([]byte("x"))
}

func cleanStoreCopy(r *Request) {
	b := bufs.Get()
	b.WriteString("x")
	r.Body = append([]byte(nil), b.Bytes()...)
	bufs.Put(b)
}

func cleanOwnerField(r *Request) {
	b := bufs.Get()
	r.buf = b
}

func cleanWriteOut(w io.Writer) error {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	_, err := w.Write(b.Bytes())
	return err
}

func cleanReturnOwnership() *bytes.Buffer {
	b := bufs.Get()
	b.WriteString("x")
	return b
}

func cleanLocalStruct() int {
	b := bufs.Get()
	defer bufs.Put(b)
	var r Request
	r.Body = b.Bytes()
	return len(r.Body)
}

var list [][]byte

// An append into a global slice stores the pooled bytes (it was in the
// missed suite).
func badAppendGlobal() {
	b := bufs.Get()
	defer bufs.Put(b)
	list = append(list, b.Bytes()) // want `stored`
}
