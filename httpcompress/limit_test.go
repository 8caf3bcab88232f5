//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
)

// TestRequestLimitExtremes checks request decompression at the extreme
// limits: the largest ones let a body through (limit+1 used to overflow at
// math.MaxInt64 and panic with a slice bounds error in Read), the smallest
// positive one refuses any byte past it, and zero leaves bodies alone.
func TestRequestLimitExtremes(t *testing.T) {
	plain := text(5000)
	zipped := gz(t, plain)
	gzHdr := map[string]string{"Content-Encoding": "gzip"}
	for _, tc := range []struct {
		limit  int64
		status int
		want   string
	}{
		{math.MaxInt64, 200, fmt.Sprintf("%d %s %q", len(plain), plain[:10], "")},
		{math.MaxInt64 - 1, 200, fmt.Sprintf("%d %s %q", len(plain), plain[:10], "")},
		{int64(len(plain)), 200, fmt.Sprintf("%d %s %q", len(plain), plain[:10], "")},
		{1, 413, ""},
		{0, 200, fmt.Sprintf("%d %s %q", len(zipped), zipped[:10], "gzip")}, // left alone
	} {
		mw, err := httpcompress.New(httpcompress.Config{RequestLimit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		h := mw(echoHandler(t))
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(zipped))
		for k, v := range gzHdr {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("RequestLimit %d: panic %v", tc.limit, p)
				}
			}()
			h.ServeHTTP(rec, req)
		}()
		if rec.Code != tc.status || (tc.want != "" && rec.Body.String() != tc.want) {
			t.Errorf("RequestLimit %d: %d %q, want %d %q", tc.limit, rec.Code, rec.Body.String(), tc.status, tc.want)
		}
	}
}

// TestSizeExtremes checks MinSize and JitterPrefix at math.MaxInt: each
// request used to allocate a prefix buffer of that capacity up front and
// panic with makeslice's error. The body, smaller than either, is held
// until the handler returns and then sent (as it is below MinSize,
// compressed above the default MinSize with Jitter), through Write and
// through ReadFrom.
func TestSizeExtremes(t *testing.T) {
	body := text(3000)
	for _, c := range []httpcompress.Config{
		{MinSize: math.MaxInt},
		{MinSize: math.MaxInt - 1},
		{Jitter: 10, JitterPrefix: math.MaxInt},
		{Jitter: 200, JitterPrefix: math.MaxInt - 1},
	} {
		mw, err := httpcompress.New(c)
		if err != nil {
			t.Fatalf("MinSize %d, JitterPrefix %d: New: %v", c.MinSize, c.JitterPrefix, err)
		}
		for _, how := range []string{"Write", "ReadFrom"} {
			h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				if how == "Write" {
					w.Write(body)
				} else {
					io.Copy(w, bytes.NewReader(body))
				}
			}))
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("MinSize %d, JitterPrefix %d, %s: panic %v", c.MinSize, c.JitterPrefix, how, p)
					}
				}()
				h.ServeHTTP(rec, req)
			}()
			got := rec.Body.Bytes()
			if rec.Header().Get("Content-Encoding") == "gzip" && c.Jitter > 0 {
				got = gunzip(t, got) // above the default MinSize: compressed, padded
			}
			if rec.Code != 200 || !bytes.Equal(got, body) {
				t.Errorf("MinSize %d, JitterPrefix %d, %s: %d, %d bytes (encoding %q), want 200 and the %d bytes of the body",
					c.MinSize, c.JitterPrefix, how, rec.Code, rec.Body.Len(), rec.Header().Get("Content-Encoding"), len(body))
			}
		}
	}
}
