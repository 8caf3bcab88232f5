//go:build !js && !wasip1

package httpcompress_test

import (
	"net/http"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/internal/httpdiff"
)

// FuzzNetHTTP runs handler programs (writes, header changes before and after
// them, statuses, flushes, ResponseController calls, panics, hijacks) bare
// and behind the middleware, on real servers, and requires the same
// responses modulo the differences the package documents. go test runs the
// seeds and testdata/fuzz/FuzzNetHTTP.
func FuzzNetHTTP(f *testing.F) {
	for _, s := range httpdiff.Seeds() {
		f.Add(s)
	}
	mw := func(c httpcompress.Config) func(http.Handler) http.Handler {
		m, err := httpcompress.New(c)
		if err != nil {
			f.Fatal(err)
		}
		return m
	}
	r := httpdiff.New(f,
		httpdiff.Target{Name: "Handler", Wrap: httpcompress.Handler},
		httpdiff.Target{Name: "MinSize -1", Wrap: mw(httpcompress.Config{MinSize: -1})},
		httpdiff.Target{Name: "MinSize 100, ETagKeep", Wrap: mw(httpcompress.Config{MinSize: 100,
			ETag: httpcompress.ETagKeep}), ETagKept: true},
	)
	f.Fuzz(r.Check)
}
