//go:build !js && !wasip1

package httpcompress_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
)

// TestFlushSSE: each event must reach the client while the handler waits
// for the client to have read the previous one, so a Flush that did not
// push compressed data through would deadlock (and time out).
func TestFlushSSE(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) { testFlushSSE(t, proto) })
	}
}

func testFlushSSE(t *testing.T, proto string) {
	const events = 5
	got := make(chan string)
	s := start(t, proto, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush() // headers out before the first event
		for i := range events {
			fmt.Fprintf(w, "data: event %d\n\n", i)
			if err := http.NewResponseController(w).Flush(); err != nil {
				t.Errorf("Flush: %v", err)
				return
			}
			select {
			case ev := <-got:
				if want := fmt.Sprintf("data: event %d", i); ev != want {
					t.Errorf("client read %q, want %q", ev, want)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("event %d not received after Flush", i)
				return
			}
		}
	})))
	req, _ := http.NewRequest("GET", s.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := s.do(t, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", ce)
	}
	zr, err := newGzipReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	for i := 0; i < events && sc.Scan(); {
		if line := sc.Text(); line != "" {
			select {
			case got <- line:
			case <-time.After(15 * time.Second):
				t.Fatalf("handler gave up before event %d arrived", i)
			}
			i++
		}
	}
}

// TestResponseController: deadlines reach the underlying writer through
// Unwrap, FlushError works, and Hijack works over HTTP/1.1 and fails
// cleanly over HTTP/2, where net/http does not support it.
func TestResponseController(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) { testResponseController(t, proto) })
	}
}

func testResponseController(t *testing.T, proto string) {
	var s *site
	s = start(t, proto, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline: %v", err)
		}
		if err := rc.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetReadDeadline: %v", err)
		}
		if r.URL.Path == "/hijack" {
			conn, brw, err := rc.Hijack()
			if s.proto != "http1" {
				if err == nil {
					conn.Close()
					t.Errorf("Hijack over %s: no error", s.proto)
				}
				w.Write(text(5000))
				return
			}
			if err != nil {
				t.Errorf("Hijack: %v", err)
				return
			}
			defer conn.Close()
			brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
			brw.Flush()
			if _, err := w.Write([]byte("x")); err != http.ErrHijacked {
				t.Errorf("Write after Hijack: %v, want http.ErrHijacked", err)
			}
			return
		}
		w.Write(text(5000))
		if err := rc.Flush(); err != nil {
			t.Errorf("ResponseController.Flush: %v", err)
		}
		w.Write(text(5000))
	})))
	resp, raw := s.fetch(t, "GET", "/plain", nil, map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, raw), append(text(5000), text(5000)...)) {
		t.Errorf("plain request after deadlines: wrong response")
	}
	_, raw = s.fetch(t, "GET", "/hijack", nil, map[string]string{"Accept-Encoding": "gzip"})
	if want := "hijacked"; proto == "http1" && string(raw) != want {
		t.Errorf("hijacked body = %q", raw)
	} else if proto != "http1" && !bytes.Equal(gunzip(t, raw), text(5000)) {
		t.Errorf("body after a failed Hijack differs")
	}
}

// TestInformational: a 103 reaches the client before the final response,
// which is still compressed.
func TestInformational(t *testing.T) {
	s := serve(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Write(text(3000))
	})))
	var got []int
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, _ textprotoHeader) error {
		got = append(got, code)
		return nil
	}}
	req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", s.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(got) != 1 || got[0] != 103 {
		t.Errorf("1xx responses = %v, want [103]", got)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, raw), text(3000)) {
		t.Errorf("final response: %d %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}

// TestServeContent: http.ServeContent through the handler. A full GET is
// compressed (io.Copy goes through ReadFrom), without Accept-Ranges; a Range
// request gets its 206 uncompressed; If-None-Match with the weakened tag
// gets a 304.
func TestServeContent(t *testing.T) {
	dir := t.TempDir()
	content := text(200 << 10)
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	s := serve(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f.txt", time.Unix(1e9, 0), f)
	})))
	gz := map[string]string{"Accept-Encoding": "gzip"}
	resp, raw := fetch(t, "GET", s.URL, gz)
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Accept-Ranges") != "" || resp.Header.Get("Etag") != `W/"v1"` {
		t.Errorf("full GET: headers %v", resp.Header)
	}
	if !bytes.Equal(gunzip(t, raw), content) {
		t.Errorf("full GET: body differs")
	}
	resp, raw = fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=100-199"})
	if resp.StatusCode != 206 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(raw, content[100:200]) {
		t.Errorf("Range: status %d, Content-Encoding %q, body %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), raw)
	}
	resp, _ = fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `W/"v1"`})
	if resp.StatusCode != 304 {
		t.Errorf("If-None-Match: status %d, want 304", resp.StatusCode)
	}
	// Without Accept-Encoding the file goes out as is, ranges and all.
	resp, raw = fetch(t, "GET", s.URL, nil)
	if resp.Header.Get("Accept-Ranges") != "bytes" || !bytes.Equal(raw, content) {
		t.Errorf("identity GET: Accept-Ranges %q, %d bytes", resp.Header.Get("Accept-Ranges"), len(raw))
	}
}

// TestReadFrom: io.Copy into the handler's writer, split at every point
// around the buffered prefix.
func TestReadFrom(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 1023, 1024, 1025, 40000, 100000} {
		content := text(n)
		s := serve(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(content[:min(n, 7)])
			if _, err := io.Copy(w, oneByteFirst{bytes.NewReader(content[min(n, 7):]), true}); err != nil {
				t.Error(err)
			}
		})))
		resp, raw := fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip"})
		body := raw
		if resp.Header.Get("Content-Encoding") == "gzip" {
			body = gunzip(t, raw)
		} else if n >= 1024 {
			t.Errorf("n=%d: not compressed", n)
		}
		if !bytes.Equal(body, content) {
			t.Errorf("n=%d: body differs (%d bytes)", n, len(body))
		}
	}
}

// oneByteFirst returns a single byte on its first Read, so the prefix
// fills over several reads.
type oneByteFirst struct {
	r     io.Reader
	first bool
}

func (o oneByteFirst) Read(p []byte) (int, error) {
	if o.first && len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// TestWriteAfterReturn: a writer leaked past the handler's return reaches
// nothing.
func TestWriteAfterReturn(t *testing.T) {
	leaked := make(chan http.ResponseWriter, 1)
	s := serve(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(text(2000))
		leaked <- w
	})))
	resp, raw := fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, raw), text(2000)) {
		t.Fatal("response wrong")
	}
	w := <-leaked
	if _, err := w.Write([]byte("late")); err == nil || !strings.Contains(err.Error(), "after the handler returned") {
		t.Errorf("Write after return: %v", err)
	}
	if err := http.NewResponseController(w).Flush(); err == nil {
		t.Errorf("Flush after return: no error")
	}
	if n, err := w.(io.ReaderFrom).ReadFrom(strings.NewReader("late")); n != 0 || err == nil {
		t.Errorf("ReadFrom after return: %d, %v", n, err)
	}
	if _, _, err := http.NewResponseController(w).Hijack(); err == nil {
		t.Errorf("Hijack after return: no error")
	}
	w.Header().Set("X-Late", "1")
	if h := w.Header(); len(h) != 0 {
		t.Errorf("Header after return: %v, want a new empty map each time", h)
	}
}
