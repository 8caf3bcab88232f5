package httpcompress_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/internal/race"
)

// These run on httptest.ResponseRecorder, so they need no network; they are
// gzhttp's edge cases.

func record(h http.Handler, rec http.ResponseWriter) {
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(rec, req)
}

// A handler that writes nothing leaves the ResponseWriter untouched, so an
// outer handler can still choose the status.
func TestNothingWritten(t *testing.T) {
	inner := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	rec := httptest.NewRecorder()
	record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(w, r)
		w.WriteHeader(http.StatusNotFound)
	}), rec)
	if rec.Code != http.StatusNotFound {
		t.Errorf("status = %d, want 404", rec.Code)
	}
}

// No Content-Type is invented for a response without a body.
func TestNoContentTypeWithoutBody(t *testing.T) {
	for _, code := range []int{http.StatusOK, http.StatusNoContent, http.StatusNotModified} {
		rec := httptest.NewRecorder()
		record(httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
		})), rec)
		if rec.Code != code || rec.Header().Get("Content-Type") != "" || rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("%d: got %d, Content-Type %q, Content-Encoding %q", code, rec.Code,
				rec.Header().Get("Content-Type"), rec.Header().Get("Content-Encoding"))
		}
	}
}

// A nil Content-Type means "do not sniff", as in net/http.
func TestNilContentType(t *testing.T) {
	rec := httptest.NewRecorder()
	record(httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		w.Write(text(3000))
	})), rec)
	if ct, ok := rec.Header()["Content-Type"]; !ok || len(ct) != 0 {
		t.Errorf("Content-Type = %q, %v; want the nil entry kept", ct, ok)
	}
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("not compressed")
	}
}

// A Flush before any Write sends the status and starts compressing.
func TestFlushBeforeWrite(t *testing.T) {
	rec := httptest.NewRecorder()
	record(httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.(http.Flusher).Flush()
		if !rec.Flushed || rec.Code != http.StatusNotFound {
			t.Errorf("after Flush: flushed %v, status %d", rec.Flushed, rec.Code)
		}
		w.Write(text(100))
	})), rec)
	if rec.Header().Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, rec.Body.Bytes()), text(100)) {
		t.Errorf("Content-Encoding %q", rec.Header().Get("Content-Encoding"))
	}
}

// A second WriteHeader is ignored, and the first status wins.
func TestSecondWriteHeader(t *testing.T) {
	rec := httptest.NewRecorder()
	record(httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		w.WriteHeader(http.StatusInternalServerError)
		w.Write(text(3000))
	})), rec)
	if rec.Code != http.StatusCreated || !bytes.Equal(gunzip(t, rec.Body.Bytes()), text(3000)) {
		t.Errorf("status %d", rec.Code)
	}
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return out
}

// text returns n bytes of compressible text.
func text(n int) []byte {
	const line = "the quick brown fox jumps over the lazy dog 0123456789\n"
	return []byte(strings.Repeat(line, n/len(line)+1)[:n])
}

// discard is a ResponseWriter that allocates nothing.
type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}

// TestAllocs: a compressed response costs one allocation, the 8-byte
// per-request handle; a response to a client that accepts no compression
// costs one, the Vary value.
func TestAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // keep the pools
	ct := []string{"application/json"}
	body := text(4000)
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = ct
		w.Write(body)
	}))
	for _, ae := range []string{"gzip", "br"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", ae)
		w := discard{h: make(http.Header)}
		n := testing.AllocsPerRun(200, func() {
			clear(w.h)
			h.ServeHTTP(w, req)
		})
		if n != 1 {
			t.Errorf("Accept-Encoding %s: %v allocations per response, want 1", ae, n)
		}
	}
}

// TestStateReuse: the per-response state is pooled behind a per-request
// handle. A handle leaked from one response cannot write into the next
// (which, with collections off and one goroutine, reuses the same state),
// and a handler that overwrites a header value in place does not change
// the next response's headers.
func TestStateReuse(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var leaked http.ResponseWriter
	var lateErr error
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/leak":
			leaked = w
			w.Write(text(2000))
		case "/mutate":
			// The header map of before the first Write is the one sent.
			hdr := w.Header()
			hdr["Vary"][0] = "Cookie"
			w.Write(text(2000))
			hdr["Content-Encoding"][0] = "br"
		default:
			_, lateErr = leaked.Write([]byte("LEAKED"))
			leaked.WriteHeader(500)
			leaked.Header().Set("X-Leaked", "1")
			w.Write(text(2000))
		}
	}))
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	get("/leak")
	rec := get("/next")
	if lateErr == nil {
		t.Errorf("write through a leaked handle succeeded")
	}
	if rec.Code != 200 || rec.Header().Get("X-Leaked") != "" || !bytes.Equal(gunzip(t, rec.Body.Bytes()), text(2000)) {
		t.Errorf("next response touched by the leaked handle: %d %v", rec.Code, rec.Header())
	}
	get("/mutate")
	rec = get("/next")
	if rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("after an in-place header write: Vary %q, Content-Encoding %q", rec.Header().Get("Vary"), rec.Header().Get("Content-Encoding"))
	}
}
