//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/internal/race"
)

// body returns the deterministic body for a seed and size: text, random
// bytes or a mix, so every kind of deflate block occurs.
func body(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	switch seed % 3 {
	case 0:
		copy(b, text(n))
		for i := 0; i < n/200; i++ {
			b[r.IntN(n)] = byte(r.IntN(256))
		}
	case 1:
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	default:
		words := []string{"alpha ", "beta ", "gamma ", "{\"k\":", "1234, ", "\n"}
		for i := 0; i < n; {
			i += copy(b[i:], words[r.IntN(len(words))])
		}
	}
	return b
}

// chunkedHandler writes body(seed, size) from the query in random pieces,
// sometimes flushing.
func chunkedHandler(t testing.TB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seed, _ := strconv.ParseUint(r.URL.Query().Get("seed"), 10, 64)
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		b := body(seed, size)
		rnd := rand.New(rand.NewPCG(seed, 2))
		if rnd.IntN(4) == 0 {
			w.Header().Set("Content-Type", "application/json")
		}
		for len(b) > 0 {
			n := min(len(b), 1+rnd.IntN(70000))
			if rnd.IntN(3) == 0 {
				n = min(len(b), 1+rnd.IntN(600))
			}
			if _, err := w.Write(b[:n]); err != nil {
				return
			}
			b = b[n:]
			if rnd.IntN(20) == 0 {
				w.(http.Flusher).Flush()
			}
		}
	})
}

// sizes returns random sizes from 0 to 4 MiB, log-uniform, with the edges.
func sizes(r *rand.Rand, n int) []int {
	out := []int{0, 1, 511, 512, 1023, 1024, 1025, 4 << 20}
	for len(out) < n {
		out = append(out, int(float64(1)*pow2(r.Float64()*22)))
	}
	return out
}

func pow2(x float64) float64 {
	v := 1.0
	for ; x >= 1; x-- {
		v *= 2
	}
	return v * (1 + x*0.693) // close enough to 2^x for picking sizes
}

// TestRandomBodies: random bodies from 0 to 4 MiB, written in random
// pieces, decompress byte for byte to what the handler wrote, through Go's
// transparent gzip and through a raw read.
func TestRandomBodies(t *testing.T) {
	s := serve(t, httpcompress.Handler(chunkedHandler(t)))
	r := rand.New(rand.NewPCG(7, 7))
	n := 40
	if testing.Short() || race.Enabled {
		n = 12
	}
	client := &http.Client{Timeout: time.Minute} // transparent gzip
	for i, size := range sizes(r, n) {
		seed := uint64(i)
		url := fmt.Sprintf("%s/?seed=%d&size=%d", s.URL, seed, size)
		want := body(seed, size)
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("size %d seed %d: transparent client got %d bytes, want %d", size, seed, len(got), len(want))
		}
		if size >= 1024 && !resp.Uncompressed {
			t.Errorf("size %d: not compressed", size)
		}
		resp2, raw := fetch(t, "GET", url, map[string]string{"Accept-Encoding": "gzip"})
		got = raw
		if resp2.Header.Get("Content-Encoding") == "gzip" {
			got = gunzip(t, raw)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("size %d seed %d: raw client got %d bytes, want %d", size, seed, len(got), len(want))
		}
	}
}

// curlPath finds curl; without it the test skips, or fails under CI=true.
func curlPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("curl not found under CI: %v (install Debian's curl package)", err)
		}
		t.Skipf("curl not found (apt-get install curl): %v", err)
	}
	return p
}

// TestCurl: curl --compressed, a second, independent client, gets each
// body byte for byte and sees the headers the handler promises.
func TestCurl(t *testing.T) {
	curl := curlPath(t)
	s := serve(t, httpcompress.Handler(chunkedHandler(t)))
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	n := 16
	if testing.Short() {
		n = 9
	}
	for i, size := range sizes(r, n) {
		seed := uint64(100 + i)
		url := fmt.Sprintf("%s/?seed=%d&size=%d", s.URL, seed, size)
		out, hdrs := filepath.Join(dir, "body"), filepath.Join(dir, "headers")
		cmd := exec.Command(curl, "--silent", "--show-error", "--fail", "--compressed", "-D", hdrs, "-o", out, url)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("curl size %d: %v: %s", size, err, msg)
		}
		got, _ := os.ReadFile(out)
		if want := body(seed, size); !bytes.Equal(got, want) {
			t.Fatalf("curl size %d: got %d bytes, want %d", size, len(got), len(want))
		}
		h, _ := os.ReadFile(hdrs)
		headers := strings.ToLower(string(h))
		if !strings.Contains(headers, "vary: accept-encoding") {
			t.Errorf("curl size %d: no Vary in\n%s", size, h)
		}
		if compressed := strings.Contains(headers, "content-encoding: gzip"); compressed != (size >= 1024) {
			t.Errorf("curl size %d: compressed = %v\n%s", size, compressed, h)
		}
	}
	// curl sends a gzip request body; the handler sees it decompressed.
	mw, _ := httpcompress.New(httpcompress.Config{RequestLimit: 1 << 20})
	echo := serve(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(w, "%d %x", len(b), sum)
	})))
	plain := text(50000)
	gzPath := filepath.Join(dir, "req.gz")
	os.WriteFile(gzPath, gz(t, plain), 0o644)
	out, err := exec.Command(curl, "--silent", "--show-error", "--fail", "--compressed", "-H", "Content-Encoding: gzip",
		"--data-binary", "@"+gzPath, echo.URL).CombinedOutput()
	if err != nil {
		t.Fatalf("curl POST: %v: %s", err, out)
	}
	sum := sha256.Sum256(plain)
	if want := fmt.Sprintf("%d %s", len(plain), hex.EncodeToString(sum[:])); string(out) != want {
		t.Errorf("curl POST: handler saw %q, want %q", out, want)
	}
}

// TestLoad: 200 concurrent clients, random sizes and Accept-Encodings, some
// handlers panicking and some clients hanging up mid-response. Every body
// is made of its own request's marker, so a byte from another response
// shows. Afterwards the goroutines go back to their baseline.
func TestLoad(t *testing.T) {
	for _, proto := range protocols {
		t.Run(proto, func(t *testing.T) { testLoad(t, proto) })
	}
}

func testLoad(t *testing.T, proto string) {
	clients, perClient := 200, 15
	if race.Enabled {
		perClient = 4 // the race detector slows each request tenfold
	}
	if testing.Short() {
		clients, perClient = 50, 5
	}
	base := runtime.NumGoroutine()
	var served, panicked atomic.Int64
	mw, err := httpcompress.New(httpcompress.Config{Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		id := q.Get("id")
		size, _ := strconv.Atoi(q.Get("size"))
		marker := []byte("<" + id + ">")
		b := bytes.Repeat(marker, size/len(marker)+1)[:size]
		step := 1 + len(b)/3
		for i := 0; i < len(b); i += step {
			if _, err := w.Write(b[i:min(len(b), i+step)]); err != nil {
				return
			}
			if q.Get("panic") == "1" && i > 0 {
				panicked.Add(1)
				panic(http.ErrAbortHandler) // mid-write, compressor open
			}
		}
		served.Add(1)
	}))
	s := start(t, proto, h)
	client := s.client
	deadline := time.Now().Add(60 * time.Second)
	encodings := []string{"gzip", "", "gzip;q=0", "*", "br, gzip;q=0.5", "identity"}
	var wg sync.WaitGroup
	var mismatches atomic.Int64
	errc := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), 3))
			for i := 0; i < perClient && time.Now().Before(deadline); i++ {
				id := fmt.Sprintf("c%dr%d", c, i)
				size := int(pow2(r.Float64() * 19)) // up to 512 KiB
				mode := r.IntN(10)                  // 0: panic (if big enough), 1: hang up
				panics := mode == 0 && size > 3000
				normal := !panics && mode != 1
				url := fmt.Sprintf("%s/?id=%s&size=%d&panic=%d", s.URL, id, size, b2i(panics))
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
				if ae := encodings[r.IntN(len(encodings))]; ae != "" {
					req.Header.Set("Accept-Encoding", ae)
				}
				resp, err := client.Do(req)
				if err != nil {
					cancel()
					if panics {
						continue
					}
					errc <- fmt.Errorf("%s: %v", id, err)
					return
				}
				var got []byte
				if mode == 1 {
					got, _ = io.ReadAll(io.LimitReader(resp.Body, int64(r.IntN(2000))))
				} else {
					got, err = io.ReadAll(resp.Body)
				}
				resp.Body.Close()
				cancel() // a hang-up for mode 1
				if normal && err != nil {
					errc <- fmt.Errorf("%s: reading: %v", id, err)
					return
				}
				if resp.Header.Get("Content-Encoding") == "gzip" {
					if normal {
						got, err = gunzipErr(got)
						if err != nil {
							errc <- fmt.Errorf("%s: gunzip: %v", id, err)
							return
						}
					} else {
						got, _ = gunzipPrefix(got) // as far as it goes
					}
				}
				marker := "<" + id + ">"
				if !isMarkers(got, marker) {
					mismatches.Add(1)
					errc <- fmt.Errorf("%s: body is not made of %s: %.80q", id, marker, got)
					return
				}
				if normal && len(got) != size {
					mismatches.Add(1)
					errc <- fmt.Errorf("%s: %d bytes, want %d", id, len(got), size)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	t.Logf("served %d, panicked %d, mismatches %d", served.Load(), panicked.Load(), mismatches.Load())
	if served.Load() == 0 || (panicked.Load() == 0 && !testing.Short()) {
		t.Errorf("load did not exercise both paths: served %d, panicked %d", served.Load(), panicked.Load())
	}
	s.Close()
	waitGoroutines(t, base)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isMarkers reports whether b is a prefix of marker repeated.
func isMarkers(b []byte, marker string) bool {
	for i := range b {
		if b[i] != marker[i%len(marker)] {
			return false
		}
	}
	return true
}

func gunzipErr(b []byte) ([]byte, error) {
	zr, err := newGzipReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// gunzipPrefix decodes as much of a truncated stream as it can.
func gunzipPrefix(b []byte) ([]byte, error) {
	zr, err := newGzipReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err = io.Copy(&out, zr)
	return out.Bytes(), err
}

// waitGoroutines waits for the goroutine count to come back to base (the
// server's connection goroutines end a moment after Close).
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d, baseline %d\n%s", n, base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// nopLogger discards the server's log (the panics are on purpose).
func nopLogger() *log.Logger { return log.New(io.Discard, "", 0) }

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
