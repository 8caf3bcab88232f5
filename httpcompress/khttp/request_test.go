package khttp_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/race"
)

// zstdBytes compresses b as one zstd frame with the given window.
func zstdBytes(t testing.TB, b []byte, window int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(window))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	zw.Flush() // a streamed frame: its header holds the window, not the size
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipBytes compresses b with compress/gzip, as a client would: klauspost's
// gzip at BestCompression takes two minutes over 64 KiB of zeros under the
// race detector.
func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func post(t *testing.T, url, ce string, body []byte) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Encoding", ce)
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// echo answers the length and start of the body it read, 413 for an
// *http.MaxBytesError, 400 for another error.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		fmt.Fprintf(w, "%d %.10s", len(b), b)
	}
})

// TestRequestBody: zstd and gzip request bodies reach the handler
// decompressed, under the limit.
func TestRequestBody(t *testing.T) {
	mw, err := khttp.New(httpcompress.Config{RequestLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, mw(echo))
	plain := text(300000)
	for _, tc := range []struct {
		ce   string
		body []byte
	}{{"zstd", zstdBytes(t, plain, 1<<20)}, {"gzip", gzipBytes(t, plain)}, {"x-gzip", gzipBytes(t, plain)}} {
		resp, got := post(t, s.URL, tc.ce, tc.body)
		if want := fmt.Sprintf("%d %.10s", len(plain), plain); resp.StatusCode != 200 || string(got) != want {
			t.Errorf("%s: %d %q, want 200 %q", tc.ce, resp.StatusCode, got, want)
		}
	}
	// Corrupt and truncated bodies are errors wrapping codec.ErrCorrupt or
	// the decoder's own.
	for _, ce := range []string{"zstd", "gzip"} {
		resp, got := post(t, s.URL, ce, []byte("not compressed at all"))
		if resp.StatusCode != 400 {
			t.Errorf("%s, corrupt: %d %q, want 400", ce, resp.StatusCode, got)
		}
	}
	z := zstdBytes(t, plain, 1<<20)
	if resp, got := post(t, s.URL, "zstd", z[:len(z)/2]); resp.StatusCode != 400 {
		t.Errorf("zstd, truncated: %d %q, want 400", resp.StatusCode, got)
	}
	// Without RequestLimit bodies are left alone.
	plainServer := serve(t, khttp.Handler(echo))
	if resp, got := post(t, plainServer.URL, "zstd", z); resp.StatusCode != 200 || string(got) != fmt.Sprintf("%d %.10s", len(z), z) {
		t.Errorf("no RequestLimit: %d %q", resp.StatusCode, got)
	}
}

// TestRequestBomb: 1 GiB of zeros in 16384 zstd frames or gzip members of
// 64 KiB each, which klauspost's decoders read; the handler gets an *http.MaxBytesError having
// read exactly the limit, answers 413, and the heap does not grow with the
// bomb. A handler that ignores the error and writes nothing answers 413
// too.
func TestRequestBomb(t *testing.T) {
	zeros := make([]byte, 64<<10)
	bombs := map[string][]byte{
		"zstd": bytes.Repeat(zstdBytes(t, zeros, 1<<20), 1<<14),
		"gzip": bytes.Repeat(gzipBytes(t, zeros), 1<<14),
	}
	limit := int64(10 << 20)
	if race.Enabled {
		limit = 1 << 20 // the race detector slows klauspost's decoders tenfold
	}
	mw, _ := khttp.New(httpcompress.Config{RequestLimit: limit})
	var read int64
	var readErr error
	s := serve(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read, readErr = io.Copy(io.Discard, r.Body)
		var mbe *http.MaxBytesError
		if r.URL.Path == "/answer" && errors.As(readErr, &mbe) {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
		}
	})))
	for ce, bomb := range bombs {
		for _, path := range []string{"/answer", "/silent"} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			resp, respBody := post(t, s.URL+path, ce, bomb)
			runtime.ReadMemStats(&after)
			if resp.StatusCode != 413 {
				t.Errorf("%s %s: status %d, want 413: %q (handler read %d, %v)", ce, path, resp.StatusCode, respBody, read, readErr)
			}
			if read != limit || !errors.Is(readErr, httpcompress.ErrRequestTooLarge) || !errors.Is(readErr, reuse.ErrTooLarge) {
				t.Errorf("%s %s: handler read %d bytes (%v), want exactly the limit %d and ErrRequestTooLarge, reuse.ErrTooLarge", ce, path, read, readErr, limit)
			}
			// The client's copy of the bomb, the decoder and the server's
			// buffers; nothing near 1 GiB.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("%s %s: the bomb allocated %d MiB", ce, path, grew>>20)
			}
		}
	}
}

// TestRequestZstdWindow: a zstd body whose frame asks for a window over 8
// MiB is refused as too large, with a 413, before the decoder allocates
// it.
func TestRequestZstdWindow(t *testing.T) {
	mw, _ := khttp.New(httpcompress.Config{RequestLimit: 64 << 20})
	var readErr error
	s := serve(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, readErr = io.Copy(io.Discard, r.Body)
	})))
	big := body(3, 5<<20) // random: the stream is as long as the body
	z := zstdBytes(t, big[:64<<10], 32<<20)
	if h, err := zstdHeader(z); err != nil || h.WindowSize != 32<<20 {
		t.Fatalf("the frame's window: %d, %v; want 32 MiB", h.WindowSize, err)
	}
	resp, _ := post(t, s.URL, "zstd", z)
	if resp.StatusCode != 413 || !errors.Is(readErr, httpcompress.ErrRequestTooLarge) {
		t.Errorf("32 MiB window: status %d, error %v; want 413 and ErrRequestTooLarge", resp.StatusCode, readErr)
	}
	resp, _ = post(t, s.URL, "zstd", zstdBytes(t, big, 8<<20))
	if resp.StatusCode != 200 || readErr != nil {
		t.Errorf("8 MiB window: status %d, error %v; want 200", resp.StatusCode, readErr)
	}
}

func zstdHeader(z []byte) (zstd.Header, error) {
	var h zstd.Header
	err := h.Decode(z)
	return h, err
}

// TestRequestTooLargeStatesLimitOnce: the error a handler gets for a body
// over the limit, which echo answers as a 413, states the limit once. A
// zstd frame that declares its size over the limit said it twice: "limit
// 262144 bytes: khttp: zstd: a frame of 498901 bytes: ... (limit 262144
// bytes, window at most 8388608)".
func TestRequestTooLargeStatesLimitOnce(t *testing.T) {
	const limit = 256 << 10
	mw, err := khttp.New(httpcompress.Config{RequestLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, mw(echo))
	plain := text(498901)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	sized := enc.EncodeAll(plain, nil) // a single frame that declares its size
	enc.Close()
	if h, err := zstdHeader(sized); err != nil || !h.HasFCS || h.FrameContentSize != uint64(len(plain)) {
		t.Fatalf("the frame's header: %+v, %v; want its content size, %d", h, err, len(plain))
	}
	for _, tc := range []struct {
		name, ce string
		body     []byte
	}{
		{"zstd/declared size", "zstd", sized},
		{"zstd/streamed", "zstd", zstdBytes(t, plain, 1<<20)},
		{"gzip", "gzip", gzipBytes(t, plain)},
	} {
		resp, got := post(t, s.URL, tc.ce, tc.body)
		if n := bytes.Count(got, []byte(fmt.Sprint(limit))); resp.StatusCode != 413 || n != 1 {
			t.Errorf("%s: %d %q: states the limit %d times, want a 413 that states it once", tc.name, resp.StatusCode, got, n)
		}
	}
}

// TestRequestUnsupportedCoding: a request body in a coding khttp does not
// decode gets 415 with the two it decodes in Accept-Encoding, on a real
// server, and the handler does not run; with PassRequestEncodings it
// reaches the handler as it came.
func TestRequestUnsupportedCoding(t *testing.T) {
	ran := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran++
		fmt.Fprintf(w, "%q", r.Header.Get("Content-Encoding"))
	})
	strict, _ := khttp.New(httpcompress.Config{RequestLimit: 1 << 20})
	pass, _ := khttp.New(httpcompress.Config{RequestLimit: 1 << 20, PassRequestEncodings: true})
	body := []byte{0x8b, 0x03, 0x80}
	resp, got := post(t, serve(t, strict(h)).URL, "br", body)
	if resp.StatusCode != 415 || resp.Header.Get("Accept-Encoding") != "zstd, gzip" || ran != 0 {
		t.Errorf("br: %d, Accept-Encoding %q, %q, the handler ran %d times; want 415, \"zstd, gzip\", and it did not run",
			resp.StatusCode, resp.Header.Get("Accept-Encoding"), got, ran)
	}
	resp, got = post(t, serve(t, pass(h)).URL, "br", body)
	if resp.StatusCode != 200 || string(got) != `"br"` || ran != 1 {
		t.Errorf("br, PassRequestEncodings: %d %q, the handler ran %d times; want 200 \"br\", once", resp.StatusCode, got, ran)
	}
}
