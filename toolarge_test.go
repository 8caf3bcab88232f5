//go:build !js && !wasip1

package reuse_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/flatepool"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/zlibpool"
)

// jsonHandler is the handler a user writes from jsonpool's documentation:
// Decode the body, answer 413 when the error says the input was too large,
// 400 for any other error.
func jsonHandler(limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v struct{ Items []string }
		err := jsonpool.Decode(r.Body, &v, limit)
		switch {
		case errors.Is(err, jsonpool.ErrTooLarge):
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		default:
			fmt.Fprintf(w, "%d items", len(v.Items))
		}
	})
}

// TestServerAnswers413 runs a real net/http server with httpcompress's
// RequestLimit in front of jsonpool.Decode, and posts gzip bodies made by
// compress/gzip: a body that decompresses past RequestLimit must come back
// as 413, as one past Decode's own limit does, and as one cut short by
// http.MaxBytesReader does. It used to come back as 400: httpcompress's
// error did not match jsonpool.ErrTooLarge.
func TestServerAnswers413(t *testing.T) {
	mw, err := httpcompress.New(httpcompress.Config{RequestLimit: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/gz", mw(jsonHandler(1<<20)))   // RequestLimit is the lower
	mux.Handle("/own", mw(jsonHandler(16<<10))) // Decode's limit is the lower
	mux.Handle("/mbr", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
		jsonHandler(1<<20).ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	doc := func(n int) []byte {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf("item %06d", i)
		}
		return []byte(`{"Items":["` + strings.Join(items, `","`) + `"]}`)
	}
	gz := func(b []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(b)
		zw.Close()
		return out.Bytes()
	}
	small, big := doc(100), doc(20000) // 1.4 KB and 280 KB of JSON
	for _, tc := range []struct {
		name, path string
		body       []byte
		gzip       bool
		want       int
	}{
		{"gzip under both limits", "/gz", small, true, 200},
		{"gzip past RequestLimit", "/gz", big, true, 413},
		{"gzip past Decode's limit", "/own", doc(2000), true, 413},
		{"plain past Decode's limit", "/own", doc(2000), false, 413},
		{"plain past MaxBytesReader", "/mbr", doc(2000), false, 413},
		{"plain under MaxBytesReader", "/mbr", small, false, 200},
		{"corrupt gzip", "/gz", []byte("\x1f\x8bnot gzip at all"), true, 400},
	} {
		body := tc.body
		req, _ := http.NewRequest("POST", srv.URL+tc.path, nil)
		if tc.gzip {
			if body[0] != 0x1f {
				body = gz(body)
			}
			req.Header.Set("Content-Encoding", "gzip")
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: POST %s (%d bytes): %d %q, want %d", tc.name, tc.path, len(body), resp.StatusCode, bytes.TrimSpace(msg), tc.want)
		}
	}
}

// TestEveryLimitErrorIsErrTooLarge makes each package's limit error as a
// user meets it, and checks that it matches reuse.ErrTooLarge and its own
// package's sentinel, and that each sentinel matches reuse.ErrTooLarge.
func TestEveryLimitErrorIsErrTooLarge(t *testing.T) {
	plain := bytes.Repeat([]byte("0123456789"), 100)
	gzStream, _ := gzpool.Compress(nil, plain, 6)
	zlStream, _ := zlibpool.Compress(nil, plain, 6)
	flStream, _ := flatepool.Compress(nil, plain, 6)
	decode := func(r io.Reader) error {
		var v any
		return jsonpool.Decode(r, &v, 10)
	}
	var values jsonpool.Values[map[string]int]
	body := func() error { // httpcompress's request body past RequestLimit
		var err error
		mw, _ := httpcompress.New(httpcompress.Config{RequestLimit: 10})
		h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, err = io.ReadAll(r.Body)
		}))
		req := httptest.NewRequest("POST", "/", bytes.NewReader(gzStream))
		req.Header.Set("Content-Encoding", "gzip")
		h.ServeHTTP(httptest.NewRecorder(), req)
		return err
	}
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
	}{
		{"gzpool.Decompress", second(gzpool.Decompress(nil, gzStream, 10)), gzpool.ErrTooLarge},
		{"zlibpool.Decompress", second(zlibpool.Decompress(nil, zlStream, 10)), zlibpool.ErrTooLarge},
		{"flatepool.Decompress", second(flatepool.Decompress(nil, flStream, 10)), flatepool.ErrTooLarge},
		{"codec", second(gzpool.Decompress(nil, gzStream, 0)), codec.ErrTooLarge},
		{"jsonpool.Decode", decode(strings.NewReader(`"0123456789"`)), jsonpool.ErrTooLarge},
		{"jsonpool.Values.Decode", second(values.Decode(strings.NewReader(`{"a":1,"b":2}`), 10)), jsonpool.ErrTooLarge},
		{"httpcompress request body", body(), httpcompress.ErrRequestTooLarge},
		{"jsonpool.Decode of a MaxBytesReader", decode(http.MaxBytesReader(nil, io.NopCloser(strings.NewReader(`"0123456789"`)), 4)), jsonpool.ErrTooLarge},
	} {
		if !errors.Is(tc.err, reuse.ErrTooLarge) || !errors.Is(tc.err, tc.sentinel) {
			t.Errorf("%s: error %v: errors.Is(err, reuse.ErrTooLarge) = %t, errors.Is(err, its sentinel) = %t; want true, true",
				tc.name, tc.err, errors.Is(tc.err, reuse.ErrTooLarge), errors.Is(tc.err, tc.sentinel))
		}
		if !errors.Is(tc.sentinel, reuse.ErrTooLarge) {
			t.Errorf("%s: its sentinel %q does not wrap reuse.ErrTooLarge", tc.name, tc.sentinel)
		}
	}
	// Not every read error is a limit.
	if err := decode(iotest.ErrReader(io.ErrUnexpectedEOF)); errors.Is(err, reuse.ErrTooLarge) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("jsonpool.Decode of a failing reader: %v; want io.ErrUnexpectedEOF and not ErrTooLarge", err)
	}
}

func second[T any](_ T, err error) error { return err }
