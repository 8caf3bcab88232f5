package httpcompress_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
)

// serveRecorded runs h for a GET with Accept-Encoding ae and returns the
// recorder and the decoded body.
func serveRecorded(t *testing.T, h http.Handler, ae string) (*httptest.ResponseRecorder, []byte) {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", ae)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body := rec.Body.Bytes()
	if rec.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return rec, body
}

// TestHeaderBetweenWrites: a handler that sets a header between two
// Writes gets its whole body sent, as net/http sends it, whatever the
// header would have changed in how much of the body is held (it once
// panicked with "slice bounds out of range").
func TestHeaderBetweenWrites(t *testing.T) {
	for _, c := range []struct {
		name    string
		minSize int
		ae      string
		first   int
		set     [2]string
		second  int
	}{
		{"identity refused, Content-Type", 0, "gzip, identity;q=0", 5, [2]string{"Content-Type", "text/plain"}, 6},
		{"Content-Length", 0, "gzip", 600, [2]string{"Content-Length", "5000"}, 100},
		{"MinSize -1, Content-Type", -1, "gzip", 511, [2]string{"Content-Type", "application/json"}, 1},
		{"MinSize 100, Content-Type", 100, "gzip", 300, [2]string{"Content-Type", "text/html"}, 300},
	} {
		t.Run(c.name, func(t *testing.T) {
			mw, err := httpcompress.New(httpcompress.Config{MinSize: c.minSize})
			if err != nil {
				t.Fatal(err)
			}
			want := text(c.first + c.second)
			_, got := serveRecorded(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write(want[:c.first])
				w.Header().Set(c.set[0], c.set[1])
				w.Write(want[c.first:])
			})), c.ae)
			if !bytes.Equal(got, want) {
				t.Errorf("body: %d bytes, want %d", len(got), len(want))
			}
		})
	}
}

// TestHeaderAfterWrite: as with net/http, what a handler does to the
// header or status after its first Write does not reach the response,
// trailers aside, even while the middleware still holds the body.
func TestHeaderAfterWrite(t *testing.T) {
	png := append([]byte("\x89PNG\x0d\x0a\x1a\x0a"), make([]byte, 592)...)
	t.Run("ServeContent after a Write", func(t *testing.T) {
		// ServeContent's Content-Length: 0 once failed the 600 bytes held.
		rec, got := serveRecorded(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(png)
			http.ServeContent(w, r, "f.txt", time.Time{}, bytes.NewReader(nil))
		})), "gzip")
		if ct := rec.Result().Header.Get("Content-Type"); !bytes.Equal(got, png) || ct != "image/png" {
			t.Errorf("body %d bytes, Content-Type %q; want the 600 bytes, image/png", len(got), ct)
		}
	})
	t.Run("WriteHeader after a Write", func(t *testing.T) {
		rec, _ := serveRecorded(t, httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(text(10))
			w.WriteHeader(http.StatusNotFound)
			w.Header().Set("X-Late", "1")
		})), "gzip")
		if late := rec.Result().Header.Get("X-Late"); rec.Code != http.StatusOK || late != "" {
			t.Errorf("status %d, X-Late %q; want 200 and no X-Late", rec.Code, late)
		}
	})
	t.Run("1xx after the status", func(t *testing.T) {
		var codes []int
		h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			w.WriteHeader(http.StatusEarlyHints)
			w.Write(text(10))
		}))
		rec := &codeRecorder{ResponseRecorder: httptest.NewRecorder(), codes: &codes}
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(rec, req)
		if len(codes) != 1 || codes[0] != http.StatusCreated {
			t.Errorf("WriteHeader calls %v, want [201]", codes)
		}
	})
}

// codeRecorder records every WriteHeader call.
type codeRecorder struct {
	*httptest.ResponseRecorder
	codes *[]int
}

func (r *codeRecorder) WriteHeader(code int) {
	*r.codes = append(*r.codes, code)
	r.ResponseRecorder.WriteHeader(code)
}
