package httpcompress_test

import (
	"bytes"
	"fmt"
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
