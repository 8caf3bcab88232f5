//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
)

// protocols are the ways the server-side tests reach the handler: HTTP/1.1,
// HTTP/2 over TLS (httptest's StartTLS with EnableHTTP2) and HTTP/2 over
// cleartext (h2c, http.Server.Protocols).
var protocols = []string{"http1", "h2", "h2c"}

// site is a test server reached through one protocol by a client that
// sees responses as sent, with no transparent decompression.
type site struct {
	*httptest.Server
	proto  string
	client *http.Client
}

// start serves h over proto on 127.0.0.1 until the test ends.
func start(t testing.TB, proto string, h http.Handler) *site {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.Config.ErrorLog = nopLogger()
	var tr *http.Transport
	switch proto {
	case "http1":
		s.Start()
		tr = &http.Transport{}
	case "h2":
		s.EnableHTTP2 = true
		s.StartTLS()
		tr = s.Client().Transport.(*http.Transport).Clone()
		tr.ForceAttemptHTTP2 = true
	case "h2c":
		s.Config.Protocols = new(http.Protocols)
		s.Config.Protocols.SetHTTP1(true)
		s.Config.Protocols.SetUnencryptedHTTP2(true)
		s.Start()
		tr = &http.Transport{Protocols: new(http.Protocols)}
		tr.Protocols.SetUnencryptedHTTP2(true)
	default:
		t.Fatalf("unknown protocol %q", proto)
	}
	tr.DisableCompression = true
	tr.MaxIdleConnsPerHost = 256
	st := &site{Server: s, proto: proto, client: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
	t.Cleanup(st.Close)
	return st
}

// Close stops the server and the client's idle connections.
func (s *site) Close() {
	s.client.CloseIdleConnections()
	s.Server.Close()
}

// do sends req and checks that it went over the site's protocol.
func (s *site) do(t testing.TB, req *http.Request) (*http.Response, error) {
	t.Helper()
	resp, err := s.client.Do(req)
	if err == nil {
		if want := map[string]int{"http1": 1, "h2": 2, "h2c": 2}[s.proto]; resp.ProtoMajor != want {
			t.Errorf("%s: response over %s", s.proto, resp.Proto)
		}
	}
	return resp, err
}

// fetch sends a request with hdr and returns the response and its raw
// body.
func (s *site) fetch(t testing.TB, method, path string, body []byte, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := s.do(t, req)
	if err != nil {
		t.Fatalf("%s %s over %s: %v", method, path, s.proto, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s over %s: reading body: %v", method, path, s.proto, err)
	}
	return resp, b
}

// TestTrailers: trailers declared before the body and set after it, and
// ones set with http.TrailerPrefix, reach the client after a compressed
// body.
func TestTrailers(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			s := start(t, proto, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Trailer", "X-Checksum")
				w.Write(text(20000))
				w.(http.Flusher).Flush()
				w.Write(text(20000))
				sum := sha256.Sum256(append(text(20000), text(20000)...))
				w.Header().Set("X-Checksum", hex.EncodeToString(sum[:]))
				w.Header().Set(http.TrailerPrefix+"X-Late", "late")
			})))
			resp, raw := s.fetch(t, "GET", "/", nil, map[string]string{"Accept-Encoding": "gzip"})
			body := gunzip(t, raw)
			sum := sha256.Sum256(body)
			if resp.Header.Get("Content-Encoding") != "gzip" || len(body) != 40000 {
				t.Fatalf("Content-Encoding %q, %d bytes", resp.Header.Get("Content-Encoding"), len(body))
			}
			if got := resp.Trailer.Get("X-Checksum"); got != hex.EncodeToString(sum[:]) {
				t.Errorf("trailer X-Checksum = %q, want the body's SHA-256", got)
			}
			if got := resp.Trailer.Get("X-Late"); got != "late" {
				t.Errorf("trailer X-Late = %q, want late", got)
			}
		})
	}
}

// TestClientCancel: a client that cancels in the middle of a compressed
// body makes the handler's writes fail; the handler returns, its
// compressor goes back, and no goroutine is left behind.
func TestClientCancel(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			base := runtime.NumGoroutine()
			returned := make(chan error, 1)
			s := start(t, proto, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/small" {
					w.Write(text(5000))
					return
				}
				chunk := body(3, 64<<10) // incompressible, so every write sends
				deadline := time.Now().Add(20 * time.Second)
				for time.Now().Before(deadline) {
					if _, err := w.Write(chunk); err != nil {
						returned <- err
						return
					}
					if err := http.NewResponseController(w).Flush(); err != nil {
						returned <- err
						return
					}
				}
				returned <- nil
			})))
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "GET", s.URL, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := s.do(t, req)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(resp.Body, make([]byte, 100<<10)); err != nil {
				t.Fatal(err)
			}
			cancel()
			resp.Body.Close()
			select {
			case err := <-returned:
				if err == nil {
					t.Errorf("the handler wrote for 20 s to a client that had cancelled")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the handler did not return")
			}
			// The next request still works, then all goes back to the
			// baseline once the server and the client's connections close.
			_, raw := s.fetch(t, "GET", "/small", nil, map[string]string{"Accept-Encoding": "gzip"})
			if !bytes.Equal(gunzip(t, raw), text(5000)) {
				t.Errorf("the request after the cancelled one: wrong body")
			}
			s.Close()
			waitGoroutines(t, base)
		})
	}
}
