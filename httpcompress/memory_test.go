//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/internal/bodytest"
	"github.com/reuse-go/reuse/internal/race"
)

// TestRequestMemory: what one request allocates to decompress its gzip
// body is at most the limit and the overhead the package doc states, for
// bodies that fit, bombs, many members and both kinds of source; the body
// decodes when it fits and is refused as too large when it does not.
func TestRequestMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	zeros := gz(t, make([]byte, 64<<10))
	bodytest.Run(t, "doc.go", "64 KiB", 64<<10, httpcompress.ErrRequestTooLarge, []int64{1 << 10, 64 << 10, 1 << 20},
		func(limit int64) (func(http.Handler) http.Handler, error) {
			return httpcompress.New(httpcompress.Config{RequestLimit: limit})
		}, []bodytest.Case{
			{Name: "64 KiB of text", Coding: "gzip", Body: gz(t, text(64<<10)), Size: 64 << 10},
			{Name: "1 GiB of zeros", Coding: "gzip", Body: bytes.Repeat(zeros, 1<<14), Size: bodytest.TooLarge},
			{Name: "1000 members of 100 bytes", Coding: "gzip", Body: bytes.Repeat(gz(t, text(100)), 1000), Size: 100000},
		})
}
