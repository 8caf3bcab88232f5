package khttp_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
)

var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: time.Minute}

func text(n int) []byte {
	const line = "the quick brown fox jumps over the lazy dog 0123456789\n"
	return []byte(strings.Repeat(line, n/len(line)+1)[:n])
}

func body(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	if seed%2 == 0 {
		copy(b, text(n))
		for i := 0; i < n/100; i++ {
			b[r.IntN(n)] = byte(r.IntN(256))
		}
	} else {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	return b
}

func serve(t *testing.T, h http.Handler) *httptest.Server {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func fetch(t *testing.T, url, ae string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// decode undoes the response's Content-Encoding.
func decode(t *testing.T, resp *http.Response, raw []byte) []byte {
	t.Helper()
	switch ce := resp.Header.Get("Content-Encoding"); ce {
	case "":
		return raw
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return b
	case "zstd":
		d, err := zstd.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		b, err := io.ReadAll(d)
		if err != nil {
			t.Fatalf("zstd: %v", err)
		}
		return b
	default:
		t.Fatalf("unexpected Content-Encoding %q", ce)
		return nil
	}
}

func sizedHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seed, _ := strconv.ParseUint(r.URL.Query().Get("seed"), 10, 64)
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		b := body(seed, size)
		rnd := rand.New(rand.NewPCG(seed, 2))
		for len(b) > 0 {
			n := min(len(b), 1+rnd.IntN(100000))
			w.Write(b[:n])
			b = b[n:]
			if rnd.IntN(10) == 0 {
				w.(http.Flusher).Flush()
			}
		}
	})
}

func TestNegotiation(t *testing.T) {
	s := serve(t, khttp.Handler(sizedHandler()))
	for ae, want := range map[string]string{
		"gzip":                     "gzip",
		"zstd":                     "zstd",
		"gzip, deflate, br, zstd":  "zstd", // tie: server's order
		"gzip, zstd;q=0.5":         "gzip",
		"zstd;q=0, *":              "gzip",
		"br":                       "",
		"":                         "",
		"*;q=0.2, gzip;q=0.1":      "zstd",
		"identity;q=0, gzip;q=0.5": "gzip",
	} {
		resp, raw := fetch(t, s.URL+"/?seed=2&size=5000", ae)
		if got := resp.Header.Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", ae, got, want)
		}
		if resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q", ae, resp.Header.Get("Vary"))
		}
		if !bytes.Equal(decode(t, resp, raw), body(2, 5000)) {
			t.Errorf("Accept-Encoding %q: body differs", ae)
		}
	}
}

// TestRandomBodies: 0 B to 4 MiB, both encodings, byte for byte.
func TestRandomBodies(t *testing.T) {
	s := serve(t, khttp.Handler(sizedHandler()))
	r := rand.New(rand.NewPCG(1, 1))
	sizes := []int{0, 1, 1023, 1024, 4 << 20}
	n := 24
	if testing.Short() {
		n = 10
	}
	for len(sizes) < n {
		sizes = append(sizes, 1<<r.IntN(22)+r.IntN(1000))
	}
	for i, size := range sizes {
		for _, ae := range []string{"gzip", "zstd"} {
			url := fmt.Sprintf("%s/?seed=%d&size=%d", s.URL, i, size)
			resp, raw := fetch(t, url, ae)
			if got := decode(t, resp, raw); !bytes.Equal(got, body(uint64(i), size)) {
				t.Fatalf("%s size %d: %d bytes differ", ae, size, len(got))
			}
			if (size >= 1024) != (resp.Header.Get("Content-Encoding") == ae) {
				t.Errorf("%s size %d: Content-Encoding %q", ae, size, resp.Header.Get("Content-Encoding"))
			}
		}
	}
}

// TestCurl: curl --compressed offers zstd and gets it, decoded by libzstd.
func TestCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("curl not found under CI: %v", err)
		}
		t.Skipf("curl not found: %v", err)
	}
	s := serve(t, khttp.Handler(sizedHandler()))
	dir := t.TempDir()
	for i, size := range []int{0, 100, 5000, 300000, 4 << 20} {
		url := fmt.Sprintf("%s/?seed=%d&size=%d", s.URL, i, size)
		out, hdrs := filepath.Join(dir, "b"), filepath.Join(dir, "h")
		if msg, err := exec.Command(curl, "-sS", "--fail", "--compressed", "-D", hdrs, "-o", out, url).CombinedOutput(); err != nil {
			t.Fatalf("curl: %v: %s", err, msg)
		}
		got, _ := os.ReadFile(out)
		if !bytes.Equal(got, body(uint64(i), size)) {
			t.Fatalf("curl size %d: got %d bytes", size, len(got))
		}
		h, _ := os.ReadFile(hdrs)
		if compressed := strings.Contains(strings.ToLower(string(h)), "content-encoding: zstd"); compressed != (size >= 1024) {
			t.Errorf("curl size %d: zstd = %v\n%s", size, compressed, h)
		}
	}
}

// TestZstdFlush: a flushed zstd event is readable before the next one.
func TestZstdFlush(t *testing.T) {
	got := make(chan string)
	s := serve(t, khttp.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
			select {
			case ev := <-got:
				if ev != fmt.Sprintf("data: %d", i) {
					t.Errorf("got %q", ev)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("event %d not received", i)
				return
			}
		}
	})))
	req, _ := http.NewRequest("GET", s.URL, nil)
	req.Header.Set("Accept-Encoding", "zstd")
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	d, _ := zstd.NewReader(resp.Body)
	defer d.Close()
	sc := bufio.NewScanner(d)
	for i := 0; i < 3 && sc.Scan(); {
		if sc.Text() != "" {
			select {
			case got <- sc.Text():
			case <-time.After(15 * time.Second):
				t.Fatal("handler gave up")
			}
			i++
		}
	}
}

// TestZstdJitter: a skippable frame pads zstd responses; decoders skip it.
func TestZstdJitter(t *testing.T) {
	mw, err := khttp.New(httpcompress.Config{Jitter: 100})
	if err != nil {
		t.Fatal(err)
	}
	plain := serve(t, khttp.Handler(sizedHandler()))
	jit := serve(t, mw(sizedHandler()))
	for _, ae := range []string{"zstd", "gzip"} {
		r0, a := fetch(t, plain.URL+"/?seed=4&size=20000", ae)
		r1, b := fetch(t, jit.URL+"/?seed=4&size=20000", ae)
		if !bytes.Equal(decode(t, r0, a), decode(t, r1, b)) {
			t.Fatalf("%s: jittered body decodes differently", ae)
		}
		if pad := len(b) - len(a); pad < 1 || pad > 108 {
			t.Errorf("%s: padding %d bytes", ae, pad)
		}
	}
}

// TestPanicZstd: a zstd response cut by a panic is never a complete frame,
// and the next response on the pooled encoder is clean.
func TestPanicZstd(t *testing.T) {
	h := khttp.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			w.Write(bytes.Repeat([]byte("SECRET "), 5000))
			w.(http.Flusher).Flush()
			panic("bug")
		}
		w.Write(bytes.Repeat([]byte("public "), 5000))
	}))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { recover() }()
		h.ServeHTTP(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	for range 10 {
		resp, raw := fetch(t, srv.URL+"/panic", "zstd")
		if resp.Header.Get("Content-Encoding") != "zstd" {
			t.Fatal("not zstd")
		}
		d, _ := zstd.NewReader(bytes.NewReader(raw))
		if _, err := io.ReadAll(d); err == nil {
			t.Fatal("truncated response decodes as a complete frame")
		}
		d.Close()
		resp, raw = fetch(t, srv.URL+"/ok", "zstd")
		if got := decode(t, resp, raw); !bytes.Equal(got, bytes.Repeat([]byte("public "), 5000)) {
			t.Fatalf("next response: %.40q", got)
		}
	}
}

func TestLevels(t *testing.T) {
	for _, level := range []int{-2, -1, 0, 1, 2, 5, 6, 9} {
		if _, err := khttp.New(httpcompress.Config{Level: level}); err != nil {
			t.Errorf("Level %d: %v", level, err)
		}
	}
	for _, level := range []int{-3, 10} {
		if _, err := khttp.New(httpcompress.Config{Level: level}); err == nil {
			t.Errorf("Level %d: no error", level)
		}
	}
}
