// Package resty is a reduced copy of the double Put of CVE-2023-45286 in
// github.com/go-resty/resty/v2 v2.10.0 (middleware.go, client.go, util.go),
// and of its fix in v2.11.0 (go-resty/resty#745).
//
// A request keeps its pooled body buffer in a field across retries. Each
// attempt hands the buffer to a body wrapper whose Close gives it back, and
// the next attempt gives back what the field holds before taking a new
// buffer: the same buffer goes into the pool twice, and two requests then
// share it (one request's body is sent with another's).
package resty

import (
	"bytes"
	"io"
	"sync"
)

// httpRequest and httpClient stand for net/http's, whose Client.Do closes
// the request's Body.
type httpRequest struct{ Body io.ReadCloser }

type httpResponse struct{}

type httpClient struct{}

func (c *httpClient) Do(req *httpRequest) (*httpResponse, error) {
	return &httpResponse{}, req.Body.Close()
}

var bufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func releaseBuffer(buf *bytes.Buffer) { // want releaseBuffer:`releases`
	if buf != nil {
		buf.Reset()
		bufPool.Put(buf)
	}
}

type requestBodyReleaser struct {
	releaseOnce sync.Once
	reqBuf      *bytes.Buffer
	io.ReadCloser
}

func newRequestBodyReleaser(respBody io.ReadCloser, reqBuf *bytes.Buffer) io.ReadCloser {
	if reqBuf == nil {
		return respBody
	}
	return &requestBodyReleaser{reqBuf: reqBuf, ReadCloser: respBody}
}

func (rr *requestBodyReleaser) Close() error {
	err := rr.ReadCloser.Close()
	rr.releaseOnce.Do(func() {
		releaseBuffer(rr.reqBuf)
	})
	return err
}

type Request struct {
	Body       []byte
	bodyBuf    *bytes.Buffer
	RawRequest *httpRequest
}

// handleRequestBody runs before each attempt (v2.10.0).
func handleRequestBody(r *Request) {
	releaseBuffer(r.bodyBuf) // want `r.bodyBuf is Put twice: the value in field bodyBuf was handed to field reqBuf at resty.go:\d+`
	r.bodyBuf = nil
	r.bodyBuf = acquireBuffer()
	r.bodyBuf.Write(r.Body)
}

func execute(c *httpClient, req *Request) (*httpResponse, error) {
	handleRequestBody(req)
	req.RawRequest.Body = newRequestBodyReleaser(req.RawRequest.Body, req.bodyBuf)
	return c.Do(req.RawRequest)
}

// The fix (v2.11.0): handleRequestBody no longer gives the field back; the
// body wrapper's Close does.
type FixedRequest struct {
	Body       []byte
	bodyBuf    *bytes.Buffer
	RawRequest *httpRequest
}

func handleRequestBodyFixed(r *FixedRequest) {
	r.bodyBuf = acquireBuffer()
	r.bodyBuf.Write(r.Body)
}

func executeFixed(c *httpClient, req *FixedRequest) (*httpResponse, error) {
	handleRequestBodyFixed(req)
	req.RawRequest.Body = newRequestBodyReleaser(req.RawRequest.Body, req.bodyBuf)
	return c.Do(req.RawRequest)
}
