package khttp_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/codectest"
)

// TestRequestGzipForgetsPreviousBody is kgzip's
// TestPooledReaderForgetsPreviousStream for khttp's request bodies: one
// client's gzip body, then a corrupt one built to use the Huffman tables a
// klauspost flate decoder keeps across Reset from the stream before it. The
// second must be refused (400) as a fresh decoder refuses it: khttp gives
// each body a new klauspost decoder for that reason, and this test fails
// when it pools them. The compress/gzip decoder that httpcompress.Gzip
// pools, which Gzip's documentation offers for request bodies instead,
// must refuse it too.
func TestRequestGzipForgetsPreviousBody(t *testing.T) {
	secret := []byte(strings.Repeat("account 4929-1234-5678-9012 balance 1,000,000; ", 200))
	var buf bytes.Buffer
	zw, _ := kgzip.NewWriterLevel(&buf, 6)
	zw.Write(secret)
	zw.Close()
	previous := buf.Bytes()
	stream, stale := codectest.StaleStream(t, previous, flate.NewReader)
	if readAll(kgzip.NewReader(bytes.NewReader(stream))) == nil {
		t.Fatal("setup: a fresh klauspost reader accepts the crafted stream")
	}
	if readAll(gzip.NewReader(bytes.NewReader(stream))) == nil {
		t.Fatal("setup: compress/gzip accepts the crafted stream")
	}

	kh, _ := khttp.New(httpcompress.Config{RequestLimit: 1 << 20})
	std, _ := khttp.New(httpcompress.Config{RequestLimit: 1 << 20, Encodings: []httpcompress.Encoding{
		khttp.Zstd(),
		{Name: "gzip", Open: khttp.Gzip().Open, OpenReader: httpcompress.Gzip().OpenReader},
	}})
	for name, mw := range map[string]func(http.Handler) http.Handler{"khttp.Gzip": kh, "httpcompress.Gzip's reader": std} {
		s := serve(t, mw(echo))
		// Several rounds, as the race detector drops some of the pool's Puts.
		for range 20 {
			resp, got := post(t, s.URL, "gzip", previous)
			if want := fmt.Sprintf("%d %.10s", len(secret), secret); resp.StatusCode != 200 || string(got) != want {
				t.Fatalf("%s: the good body: %d %q, want 200 %q", name, resp.StatusCode, got, want)
			}
			if resp, got = post(t, s.URL, "gzip", stream); resp.StatusCode != 400 {
				t.Fatalf("%s: a body that a fresh decoder refuses, after another: %d %q (%d bytes as a stale decoder reads it), want 400",
					name, resp.StatusCode, got, len(stale))
			}
		}
	}
}

// readAll reads what a new reader decompresses, and returns the error of
// either.
func readAll[R io.Reader](r R, err error) error {
	if err == nil {
		_, err = io.ReadAll(r)
	}
	return err
}
