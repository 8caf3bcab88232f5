package heldout

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// --- the grpc field swap (clean) --------------------------------------------

var hdrPool = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}

type framer struct {
	h *[]byte
	w io.Writer
}

// A handle kept in a field is replaced by a new pooled buffer, and only
// then is the old one Put: p is the new buffer's memory (grpc-go's
// http2 framer).
func (c *framer) cleanFieldSwap(data []byte) {
	old := c.h
	c.h = hdrPool.Get().(*[]byte)
	p := (*c.h)[:0]
	hdrPool.Put(old)
	p = append(p, data...)
	c.w.Write(p)
}

// The same, the old value Put first, then the field read again.
func (c *framer) cleanFieldPutThenReplace(data []byte) {
	hdrPool.Put(c.h)
	c.h = hdrPool.Get().(*[]byte)
	*c.h = append((*c.h)[:0], data...)
	c.w.Write(*c.h)
}

// --- CVE-2023-45286 (bad) -----------------------------------------------------

// A reduced copy of go-resty v2.10.0: the request keeps its pooled body
// buffer in a field across retries. Each attempt wraps it in a body whose
// Close gives it back, and the next attempt Puts the field again before
// taking a new buffer: the same buffer goes into the pool twice.

var bodyPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBody() *bytes.Buffer { return bodyPool.Get().(*bytes.Buffer) }

func releaseBody(buf *bytes.Buffer) {
	if buf != nil {
		buf.Reset()
		bodyPool.Put(buf)
	}
}

type bodyReleaser struct {
	once sync.Once
	buf  *bytes.Buffer
	io.ReadCloser
}

func (rr *bodyReleaser) Close() error {
	err := rr.ReadCloser.Close()
	rr.once.Do(func() { releaseBody(rr.buf) })
	return err
}

type request struct {
	body    []byte
	bodyBuf *bytes.Buffer
	raw     *http.Request
}

func prepareBody(r *request) {
	releaseBody(r.bodyBuf) // want `Put twice|twice|already`
	r.bodyBuf = nil
	r.bodyBuf = acquireBody()
	r.bodyBuf.Write(r.body)
}

func execute(c *http.Client, r *request) (*http.Response, error) {
	prepareBody(r)
	r.raw.Body = &bodyReleaser{buf: r.bodyBuf, ReadCloser: io.NopCloser(bytes.NewReader(r.bodyBuf.Bytes()))}
	return c.Do(r.raw)
}

// --- the fixed resty (clean) --------------------------------------------------

type request2 struct {
	body    []byte
	bodyBuf *bytes.Buffer
	raw     *http.Request
}

func prepareBody2(r *request2) {
	r.bodyBuf = acquireBody()
	r.bodyBuf.Write(r.body)
}

func execute2(c *http.Client, r *request2) (*http.Response, error) {
	prepareBody2(r)
	r.raw.Body = &bodyReleaser{buf: r.bodyBuf, ReadCloser: io.NopCloser(bytes.NewReader(r.bodyBuf.Bytes()))}
	r.bodyBuf = nil
	return c.Do(r.raw)
}
