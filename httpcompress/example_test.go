package httpcompress_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/reuse-go/reuse/httpcompress"
)

func ExampleHandler() {
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("hello, world\n", 100))
	}))

	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, br;q=0.5")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	zr, _ := gzip.NewReader(rec.Body)
	body, _ := io.ReadAll(zr)
	fmt.Println(rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"), rec.Header().Get("Content-Type"))
	fmt.Println(len(body), "bytes")
	// Output:
	// gzip Accept-Encoding text/plain; charset=utf-8
	// 1300 bytes
}

func ExampleNew() {
	mw, err := httpcompress.New(httpcompress.Config{
		Level:        gzip.BestSpeed,
		MinSize:      -1,       // compress bodies of any size
		RequestLimit: 64 << 10, // accept gzip request bodies up to 64 KiB decompressed
	})
	if err != nil {
		panic(err)
	}
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		fmt.Fprintf(w, "read %d bytes", len(b))
	}))

	req := httptest.NewRequest("POST", "/", strings.NewReader(gzipped(strings.Repeat("x", 100<<10))))
	req.Header.Set("Content-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Body.String())
	// Output:
	// 413 httpcompress: decompressed request body too large: limit 65536 bytes
}

func gzipped(s string) string {
	var b strings.Builder
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.String()
}
