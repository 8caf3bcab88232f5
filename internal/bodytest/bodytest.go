// Package bodytest holds what httpcompress's and khttp's request-body
// memory tests share: request bodies with and without Bytes and Len, and
// what one call allocates.
package bodytest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// Bytes is a request body with Bytes and Len, as middleware that buffers
// bodies installs: klauspost's zstd decoder decodes such a source whole
// unless it is hidden.
type Bytes struct{ *bytes.Buffer }

// Close does nothing.
func (Bytes) Close() error { return nil }

// Plain is a request body with Read and Close only.
type Plain struct{ io.Reader }

// Close does nothing.
func (Plain) Close() error { return nil }

// Sources names the two kinds of body, for NewBody.
var Sources = []string{"Read only", "Bytes and Len"}

// NewBody returns b as a body of the kind source names.
func NewBody(source string, b []byte) io.ReadCloser {
	if source == "Bytes and Len" {
		return Bytes{bytes.NewBuffer(b)}
	}
	return Plain{bytes.NewReader(b)}
}

// Allocated returns the bytes one call of f allocates, with the collector
// off.
func Allocated(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A Case is a request body for Run.
type Case struct {
	Name, Coding string // Coding is the Content-Encoding sent
	Body         []byte
	// Size is what the body decodes to; TooLarge when it passes every
	// limit, Corrupt when it does not decode.
	Size int64
}

// The Sizes of the Cases that do not decode.
const (
	TooLarge int64 = -1
	Corrupt  int64 = -2
)

// Run serves every case from every kind of source through the middleware
// newMW returns for each limit, and fails t where one request allocates
// more than the limit and overhead, which doc (a package's doc.go) must
// state as overheadText, or where the handler does not read the whole
// body when it fits, or gets less than an error matching tooLarge, having
// read at most the limit, when it does not. The pools are warmed by a
// first request before each measured one.
func Run(t *testing.T, doc, overheadText string, overhead uint64, tooLarge error, limits []int64,
	newMW func(limit int64) (func(http.Handler) http.Handler, error), cases []Case) {
	t.Helper()
	if b, err := os.ReadFile(doc); err != nil || !bytes.Contains(b, []byte(overheadText)) {
		t.Fatalf("%s does not state the overhead, %s (%v)", doc, overheadText, err)
	}
	for _, limit := range limits {
		mw, err := newMW(limit)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		var readErr error
		h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, readErr = io.Copy(io.Discard, r.Body)
		}))
		for _, c := range cases {
			for _, src := range Sources {
				serve := func() {
					req, _ := http.NewRequest("POST", "/", NewBody(src, c.Body))
					req.Header.Set("Content-Encoding", c.Coding)
					h.ServeHTTP(discard{http.Header{}}, req)
				}
				serve()
				got := Allocated(serve)
				name := fmt.Sprintf("limit %d, %s, %s", limit, c.Name, src)
				t.Logf("%s: %d KiB", name, got>>10)
				if bound := uint64(limit) + overhead; got > bound {
					t.Errorf("%s: %d bytes allocated, want at most the limit and %s, %d", name, got, overheadText, bound)
				}
				if msg := c.check(limit, n, readErr, tooLarge); msg != "" {
					t.Errorf("%s: read %d bytes, %v; want %s", name, n, readErr, msg)
				}
			}
		}
	}
}

// check returns what the handler should have read of c, if it read n
// bytes and then got err, at the limit.
func (c Case) check(limit, n int64, err, tooLarge error) string {
	switch {
	case c.Size == Corrupt:
		if err == nil {
			return "an error"
		}
	case c.Size >= 0 && c.Size <= limit:
		if err != nil || n != c.Size {
			return fmt.Sprint(c.Size, " bytes")
		}
	default:
		if !errors.Is(err, tooLarge) || n > limit {
			return fmt.Sprintf("at most %d bytes and %v", limit, tooLarge)
		}
	}
	return ""
}

// discard is a ResponseWriter that allocates nothing.
type discard struct{ h http.Header }

func (d discard) Header() http.Header       { return d.h }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
