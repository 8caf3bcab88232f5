package khttp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/httpcompress/khttp"
)

func ExampleHandler() {
	h := khttp.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("hello, world\n", 100))
	}))

	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd") // what curl --compressed sends
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	d, _ := zstd.NewReader(rec.Body)
	defer d.Close()
	body, _ := io.ReadAll(d)
	fmt.Println(rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"), len(body))
	// Output:
	// zstd Accept-Encoding 1300
}
