//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
)

// recoverer is the usual outer middleware that turns a panic into a normal
// return, after which net/http sends whatever the response had buffered.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { recover() }()
		next.ServeHTTP(w, r)
	})
}

// TestPanicMidWrite: a handler that panics with its compressor open
// leaves its client a truncated stream, never a complete one, even when an
// outer middleware recovers, and the next response, which gets the pooled
// compressor, carries none of its bytes.
func TestPanicMidWrite(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) {
			base := runtime.NumGoroutine()
			testPanicMidWrite(t, proto)
			waitGoroutines(t, base)
		})
	}
}

func testPanicMidWrite(t *testing.T, proto string) {
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			w.Write(bytes.Repeat([]byte("SECRET-A "), 2000))
			w.(http.Flusher).Flush()
			w.Write(bytes.Repeat([]byte("SECRET-A "), 2000))
			panic("handler bug")
		}
		if r.URL.Path == "/abort" {
			w.Write(bytes.Repeat([]byte("SECRET-A "), 2000))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		w.Write(bytes.Repeat([]byte("public-b "), 2000))
	}))
	// /abort's panic reaches net/http, which cuts the connection (HTTP/1.1)
	// or resets the stream (HTTP/2); /panic's is recovered, and net/http
	// ends the response normally.
	s := start(t, proto, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/abort" {
			h.ServeHTTP(w, r)
			return
		}
		recoverer(h).ServeHTTP(w, r)
	}))
	defer s.Close()
	for i := range 20 {
		path := "/panic"
		if i%2 == 1 {
			path = "/abort"
		}
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := s.do(t, req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("panicking handler's response not compressed")
		}
		if _, err := gunzipErr(raw); err == nil {
			t.Fatalf("%s: panicking handler's response decodes as a complete gzip stream", path)
		}
		_, raw = s.fetch(t, "GET", "/ok", nil, map[string]string{"Accept-Encoding": "gzip"})
		got := gunzip(t, raw)
		if bytes.Contains(got, []byte("SECRET")) || !bytes.Equal(got, bytes.Repeat([]byte("public-b "), 2000)) {
			t.Fatalf("next response differs: %.60q", got)
		}
	}
}

// TestJitter: padding of 1 to Jitter bytes in the gzip comment, the same
// for the same body (so repeating a request does not average it out), and
// different across bodies.
func TestJitter(t *testing.T) {
	plain, _ := httpcompress.New(httpcompress.Config{})
	jit, _ := httpcompress.New(httpcompress.Config{Jitter: 200, JitterPrefix: 4096})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(r.URL.Query().Get("s")))
		w.Write(text(3000))
	})
	s0, s1 := serve(t, plain(h)), serve(t, jit(h))
	pads := map[int]bool{}
	for i := range 30 {
		q := "/?s=" + strings.Repeat("x", i)
		_, a := fetch(t, "GET", s0.URL+q, map[string]string{"Accept-Encoding": "gzip"})
		_, b := fetch(t, "GET", s1.URL+q, map[string]string{"Accept-Encoding": "gzip"})
		_, b2 := fetch(t, "GET", s1.URL+q, map[string]string{"Accept-Encoding": "gzip"})
		if !bytes.Equal(gunzip(t, a), gunzip(t, b)) {
			t.Fatal("jittered body decodes differently")
		}
		pad := len(b) - len(a)
		if pad < 1 || pad > 200 {
			t.Errorf("padding %d bytes, want 1 to 200", pad)
		}
		if b[3]&0x10 == 0 {
			t.Errorf("gzip header has no comment: flags %#x", b[3])
		}
		if len(b2) != len(b) {
			t.Errorf("same body padded %d then %d bytes", len(b)-len(a), len(b2)-len(a))
		}
		pads[pad] = true
	}
	if len(pads) < 10 {
		t.Errorf("30 bodies got only %d distinct paddings", len(pads))
	}
}

func TestConfigErrors(t *testing.T) {
	bad := []httpcompress.Config{
		{Level: 10},
		{Level: -3},
		{Jitter: -1},
		{Jitter: 70000},
		{JitterPrefix: -1},
		{RequestLimit: -1},
		{ETag: 9},
		{Encodings: []httpcompress.Encoding{}},
		{Encodings: []httpcompress.Encoding{{Name: "gzip"}}},
		{Encodings: []httpcompress.Encoding{{Name: "identity", Open: httpcompress.Gzip().Open}}},
		{Encodings: make([]httpcompress.Encoding, 9)},
	}
	for i, c := range bad {
		if _, err := httpcompress.New(c); !errors.Is(err, httpcompress.ErrConfig) {
			t.Errorf("config %d: err = %v, want ErrConfig", i, err)
		}
	}
	for _, level := range []int{-2, -1, 0, 1, 5, 9} {
		if _, err := httpcompress.New(httpcompress.Config{Level: level}); err != nil {
			t.Errorf("Level %d: %v", level, err)
		}
	}
}
