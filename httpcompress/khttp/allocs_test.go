package khttp_test

import (
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/race"
)

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}

// WriteString, as net/http's ResponseWriter has.
func (d discard) WriteString(s string) (int, error) { return len(s), nil }

// TestAllocs: a compressed response costs one allocation, the 8-byte
// per-request handle, in both codings, with and without Jitter's padding.
func TestAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // keep the pools
	ct := []string{"application/json"}
	body := text(4000)
	for _, jitter := range []int{0, 300} {
		mw, err := khttp.New(httpcompress.Config{Jitter: jitter})
		if err != nil {
			t.Fatal(err)
		}
		h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = ct
			w.Write(body)
		}))
		for _, ae := range []string{"zstd", "gzip"} {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", ae)
			w := discard{h: make(http.Header)}
			n := testing.AllocsPerRun(100, func() {
				clear(w.h)
				h.ServeHTTP(w, req)
			})
			if w.h.Get("Content-Encoding") != ae {
				t.Fatalf("%s: Content-Encoding %q", ae, w.h.Get("Content-Encoding"))
			}
			if n != 1 {
				t.Errorf("%s, Jitter %d: %v allocations per response, want 1", ae, jitter, n)
			}
		}
	}
}
