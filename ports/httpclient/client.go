// Package httpclient is go-resty/resty's request body pooling (v2.17.2)
// ported onto reuse: a JSON request body marshalled once into a pooled
// buffer and sent again on each retry.
//
// resty keeps request bodies in a sync.Pool of *bytes.Buffer. Its retry
// loop once sent the pooled buffer itself as the body, put it back after
// the last attempt while the transport could still be reading it, and so
// sent one request's body in another (CVE-2023-45286); the fix copies the
// body into a fresh buffer on every attempt ("fix data race: must deep
// copy"), which allocates the body again per attempt. acquireBuffer also
// distrusts what the pool hands out: a buffer that is not empty is dropped.
//
// The port keeps one pooled buffer for all attempts and copies nothing.
// Each attempt reads it through a body of its own, and the buffer goes back
// to its bytebuf.Pool only when the retry loop is done and the transport has
// closed every attempt's body (net/http closes a request body even on
// errors, possibly after Do returns). A body closed twice releases once;
// a read after its Close returns an error instead of pooled bytes.
package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reuse-go/reuse/bytebuf"
)

// ErrStatus is wrapped by the error of a request whose last attempt got a
// status of 500 or more.
var ErrStatus = errors.New("httpclient: server error")

var bodies bytebuf.Pool

// Client posts JSON with retries. The zero value uses http.DefaultClient
// and makes one attempt.
type Client struct {
	HTTP    *http.Client  // nil: http.DefaultClient
	Retries int           // attempts after the first, on a transport error or a 5xx status
	Wait    time.Duration // between attempts
}

// Response is the last attempt's response, its body read in full.
type Response struct {
	StatusCode int
	Body       []byte
	Attempts   int
}

// PostJSON sends v, encoded as JSON by encoding/json, to url, retrying as
// the Client says. The error wraps ErrStatus when the last attempt got a 5xx
// status, and is the transport's or the context's error otherwise.
func (c *Client) PostJSON(ctx context.Context, url string, v any) (*Response, error) {
	if c == nil {
		panic("httpclient: Client.PostJSON: nil *Client")
	}
	data, err := json.Marshal(v) // as resty's jsonMarshal: Marshal, then Write into a pooled buffer
	if err != nil {
		return nil, err
	}
	buf := bodies.Get()
	buf.Write(data)
	sb := &sharedBody{buf: buf}
	sb.refs.Store(1) // the loop's own reference
	defer sb.release()

	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp := &Response{}
	for {
		resp.Attempts++
		var res *http.Response
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, sb.newBody())
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.ContentLength = int64(buf.Len())
			req.GetBody = func() (io.ReadCloser, error) { return sb.newBody(), nil }
			res, err = hc.Do(req)
		}
		if err == nil {
			resp.StatusCode = res.StatusCode
			resp.Body, err = io.ReadAll(res.Body)
			res.Body.Close()
			if err == nil && res.StatusCode >= 500 {
				err = fmt.Errorf("%w: %s", ErrStatus, res.Status)
			}
		}
		if err == nil || resp.Attempts > c.Retries || ctx.Err() != nil {
			return resp, err
		}
		if c.Wait > 0 {
			t := time.NewTimer(c.Wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return resp, ctx.Err()
			case <-t.C:
			}
		}
	}
}

// A sharedBody is one pooled request body, read by every attempt; it goes
// back to the pool when its last reference is released.
type sharedBody struct {
	buf  *bytebuf.Buffer
	refs atomic.Int32
}

func (s *sharedBody) release() {
	if n := s.refs.Add(-1); n == 0 {
		bodies.Put(s.buf)
	} else if n < 0 {
		panic("httpclient: sharedBody.release: released more often than taken")
	}
}

// newBody returns a reader of the whole body that holds a reference until
// it is closed.
func (s *sharedBody) newBody() io.ReadCloser {
	s.refs.Add(1)
	b := &body{s: s}
	b.r.Reset(s.buf.Bytes())
	return b
}

// errClosed is what a body read after its Close returns.
var errClosed = errors.New("httpclient: read from a closed request body")

// body is one attempt's request body. The transport may Close it from
// another goroutine while a Read is under way; mu keeps the buffer from
// going back to the pool in the middle of that Read.
type body struct {
	mu     sync.Mutex
	s      *sharedBody
	r      bytes.Reader
	closed bool
}

func (b *body) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errClosed
	}
	return b.r.Read(p)
}

func (b *body) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		b.r.Reset(nil)
		b.s.release()
	}
	return nil
}
