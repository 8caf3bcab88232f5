package httpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-resty/resty/v2"

	"github.com/reuse-go/reuse/ports/httpclient"
)

type payload struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Pad  string `json:"pad"`
}

// flaky is a server that answers 503 to the first fail attempts of each
// request (told apart by the X-Req header) and echoes the body after that.
// Every attempt's body must be the same bytes; a mismatch is recorded.
type flaky struct {
	fail     int
	mu       sync.Mutex
	seen     map[string][]byte
	attempts map[string]int
	bad      atomic.Int64
}

func newFlaky(fail int) *flaky {
	return &flaky{fail: fail, seen: map[string][]byte{}, attempts: map[string]int{}}
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	id := r.Header.Get("X-Req")
	if id == "" {
		id = string(body) // the port sets no header: the body is the key
	}
	f.mu.Lock()
	if prev, ok := f.seen[id]; ok && !bytes.Equal(prev, body) {
		f.bad.Add(1)
	}
	f.seen[id] = body
	f.attempts[id]++
	n := f.attempts[id]
	f.mu.Unlock()
	if n <= f.fail {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Write(body)
}

// TestSameBodyAsResty checks the port sends what resty v2.17.2 sends for
// the same value: encoding/json's bytes, Content-Type application/json.
func TestSameBodyAsResty(t *testing.T) {
	var got [2]string
	var ct [2]string
	i := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got[i], ct[i] = string(b), r.Header.Get("Content-Type")
	}))
	defer srv.Close()
	v := payload{ID: 7, Name: "<ann & bob>", Pad: strings.Repeat("x", 3000)}
	if _, err := resty.New().R().SetBody(v).Post(srv.URL); err != nil {
		t.Fatal(err)
	}
	i = 1
	if _, err := new(httpclient.Client).PostJSON(context.Background(), srv.URL, v); err != nil {
		t.Fatal(err)
	}
	if got[0] != got[1] || ct[0] != ct[1] {
		t.Errorf("port sent %q (%s)\nresty sent %q (%s)", got[1], ct[1], got[0], ct[0])
	}
}

// TestRetry: two 503s, then the echo. Every attempt carries the same body.
func TestRetry(t *testing.T) {
	f := newFlaky(2)
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := &httpclient.Client{HTTP: srv.Client(), Retries: 3}
	v := payload{ID: 1, Name: "retry"}
	resp, err := c.PostJSON(context.Background(), srv.URL, v)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 3 || resp.StatusCode != 200 || !strings.Contains(string(resp.Body), `"name":"retry"`) {
		t.Errorf("PostJSON = %d attempts, status %d, body %q; want 3, 200, the echo", resp.Attempts, resp.StatusCode, resp.Body)
	}
	if n := f.bad.Load(); n != 0 {
		t.Errorf("%d attempts carried a body different from the first attempt's", n)
	}

	c.Retries = 1
	resp, err = c.PostJSON(context.Background(), srv.URL, payload{ID: 2})
	if !errors.Is(err, httpclient.ErrStatus) || resp.Attempts != 2 || resp.StatusCode != 503 {
		t.Errorf("PostJSON out of retries = %v after %d attempts (status %d), want ErrStatus after 2 (503)", err, resp.Attempts, resp.StatusCode)
	}
}

// TestConcurrentRetries is the CVE-2023-45286 scenario: many requests with
// retries at once, the server echoing each body. A pooled body given back
// too early would reach another request (or, in the debug build, arrive as
// DE AD BE EF poison), and its echo would not match.
func TestConcurrentRetries(t *testing.T) {
	f := newFlaky(1)
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := &httpclient.Client{HTTP: srv.Client(), Retries: 2}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				v := payload{ID: g*1000 + i, Name: fmt.Sprint("g", g), Pad: strings.Repeat("p", (i*131)%4000)}
				resp, err := c.PostJSON(context.Background(), srv.URL, v)
				if err != nil {
					t.Errorf("PostJSON: %v", err)
					return
				}
				want := fmt.Sprintf(`{"id":%d,"name":"g%d","pad":"%s"}`, v.ID, g, v.Pad)
				if string(resp.Body) != want || resp.Attempts != 2 {
					t.Errorf("echo after %d attempts = %.80q, want %.80q after 2", resp.Attempts, resp.Body, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := f.bad.Load(); n != 0 {
		t.Errorf("%d retries carried a body different from the first attempt's", n)
	}
}

// TestCanceled: a canceled context ends the retries with its error.
func TestCanceled(t *testing.T) {
	srv := httptest.NewServer(newFlaky(100))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := &httpclient.Client{HTTP: srv.Client(), Retries: 5}
	if _, err := c.PostJSON(ctx, srv.URL, payload{}); !errors.Is(err, context.Canceled) {
		t.Errorf("PostJSON with a canceled context = %v, want context.Canceled", err)
	}
}

// BenchmarkPost posts one 1 KiB JSON body to a local server that fails the
// first attempt of each request, with resty (its sync.Pool and a copy of
// the body per attempt) and with the port, in one run.
func BenchmarkPost(b *testing.B) {
	v := payload{ID: 1, Name: "bench", Pad: strings.Repeat("x", 1000)}
	b.Run("impl=resty", func(b *testing.B) {
		srv := httptest.NewServer(newFlaky(1))
		defer srv.Close()
		c := resty.NewWithClient(srv.Client()).SetRetryCount(1).SetRetryWaitTime(0).
			AddRetryCondition(func(r *resty.Response, err error) bool { return err != nil || r.StatusCode() >= 500 })
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if _, err := c.R().SetHeader("X-Req", fmt.Sprint(i)).SetBody(v).Post(srv.URL); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=reuse", func(b *testing.B) {
		srv := httptest.NewServer(newFlaky(1))
		defer srv.Close()
		c := &httpclient.Client{HTTP: srv.Client(), Retries: 1}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			v.ID = i // the server tells requests apart by their body
			if _, err := c.PostJSON(context.Background(), srv.URL, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// restyBufPool, acquireBuffer and backToBufPool are resty v2.17.2's, as its
// client.go and util.go have them.
var restyBufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer {
	buf := restyBufPool.Get().(*bytes.Buffer)
	if buf.Len() == 0 {
		buf.Reset()
		return buf
	}
	restyBufPool.Put(buf)
	return new(bytes.Buffer)
}

func backToBufPool(buf *bytes.Buffer) {
	if buf != nil {
		restyBufPool.Put(buf)
	}
}

// postRestyIdiom is the port's PostJSON written with resty's pooling: the
// body marshalled into a buffer from its sync.Pool, copied into a fresh
// buffer for every attempt (createHTTPRequest's "must deep copy"), and put
// back after the last attempt without a Reset (backToBufPool). Only the
// pooling differs from the port, so the two can be compared.
func postRestyIdiom(ctx context.Context, hc *http.Client, url string, v any, retries int) (*httpclient.Response, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	bodyBuf := acquireBuffer()
	bodyBuf.Write(data)
	defer backToBufPool(bodyBuf)
	resp := &httpclient.Response{}
	for {
		resp.Attempts++
		var res *http.Response
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewBuffer(append([]byte{}, bodyBuf.Bytes()...)))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			res, err = hc.Do(req)
		}
		if err == nil {
			resp.StatusCode = res.StatusCode
			resp.Body, err = io.ReadAll(res.Body)
			res.Body.Close()
			if err == nil && res.StatusCode >= 500 {
				err = fmt.Errorf("%w: %s", httpclient.ErrStatus, res.Status)
			}
		}
		if err == nil || resp.Attempts > retries || ctx.Err() != nil {
			return resp, err
		}
	}
}

// BenchmarkPostPooling compares only the pooling: the port against the same
// loop with resty's sync.Pool and copy per attempt.
func BenchmarkPostPooling(b *testing.B) {
	v := payload{ID: 1, Name: "bench", Pad: strings.Repeat("x", 1000)}
	b.Run("impl=resty-idiom", func(b *testing.B) {
		srv := httptest.NewServer(newFlaky(1))
		defer srv.Close()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			v.ID = i
			if _, err := postRestyIdiom(context.Background(), srv.Client(), srv.URL, v, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=reuse", func(b *testing.B) {
		srv := httptest.NewServer(newFlaky(1))
		defer srv.Close()
		c := &httpclient.Client{HTTP: srv.Client(), Retries: 1}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			v.ID = i
			if _, err := c.PostJSON(context.Background(), srv.URL, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
