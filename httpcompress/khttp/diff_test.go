package khttp_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/httpdiff"
)

// FuzzNetHTTP is httpcompress's differential test for khttp's Encodings:
// handler programs run bare and behind the middleware on real servers, and
// the responses must be the same modulo the documented differences. gzhttp
// runs the same programs; it is held to what it documents as net/http's
// behaviour: the status, the informational responses and the decoded body
// of programs that neither panic nor hijack.
func FuzzNetHTTP(f *testing.F) {
	for _, s := range httpdiff.Seeds() {
		f.Add(s)
	}
	minSize, err := khttp.New(httpcompress.Config{MinSize: -1})
	if err != nil {
		f.Fatal(err)
	}
	zstdDecoder := map[string]func(io.Reader) ([]byte, error){"zstd": unzstd}
	r := httpdiff.New(f,
		httpdiff.Target{Name: "khttp.Handler", Wrap: khttp.Handler, Decoders: zstdDecoder},
		httpdiff.Target{Name: "khttp MinSize -1", Wrap: minSize, Decoders: zstdDecoder},
		httpdiff.Target{Name: "gzhttp", Wrap: func(h http.Handler) http.Handler { return gzhttp.GzipHandler(h) },
			Loose: true},
	)
	f.Fuzz(r.Check)
}

// unzstd decodes a zstd stream, returning what it decoded before an error.
func unzstd(r io.Reader) ([]byte, error) {
	d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return io.ReadAll(d)
}
