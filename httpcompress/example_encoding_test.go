package httpcompress_test

import (
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/httpcompress"
)

// deflateCodec pools compress/zlib, HTTP's "deflate" coding.
var deflateCodec = codec.Must(codec.New(codec.Format{
	Name:     "deflate",
	MinLevel: zlib.HuffmanOnly, MaxLevel: zlib.BestCompression, DefaultLevel: 6,
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return zlib.NewWriterLevel(w, level)
	},
	NewDecompressor: func() codec.Decompressor { return new(zlibReader) },
	SingleUse:       true, // a new reader per stream: zlib.NewReader
}))

// zlibReader gives compress/zlib's reader the Reset a codec.Decompressor has.
type zlibReader struct{ r io.ReadCloser }

func (z *zlibReader) Read(p []byte) (int, error) { return z.r.Read(p) }

func (z *zlibReader) Reset(src io.Reader) (err error) {
	z.r, err = zlib.NewReader(src)
	return err
}

// A coding is plugged in as gzhttp plugs in a writer: a codec.Codec pools
// its compressors, and the Encoding's Open takes one for each response.
// Here "deflate" is offered after gzip.
func Example_encoding() {
	deflate := httpcompress.Encoding{
		Name: "deflate",
		Open: func(w *codec.Writer, dst io.Writer, level, pad int) error {
			return deflateCodec.OpenWriter(w, dst, level) // no room for padding in zlib
		},
		// Request bodies too, under RequestLimit: zlib's window is 32 KiB
		// whatever the stream, so the limit is the handler's to enforce.
		OpenReader: func(r *codec.Reader, src io.Reader, limit int64) error {
			return deflateCodec.OpenReader(r, src)
		},
	}
	mw, err := httpcompress.New(httpcompress.Config{Encodings: []httpcompress.Encoding{httpcompress.Gzip(), deflate}})
	if err != nil {
		panic(err)
	}
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("hello, world\n", 100))
	}))

	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "deflate")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	zr, _ := zlib.NewReader(rec.Body)
	body, _ := io.ReadAll(zr)
	fmt.Println(rec.Header().Get("Content-Encoding"), len(body), "bytes")
	// Output:
	// deflate 1300 bytes
}
