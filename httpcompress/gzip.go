package httpcompress

import (
	"compress/gzip"
	"io"
	"strings"
	"sync"

	"github.com/reuse-go/reuse/codec"
)

// Gzip returns the gzip Encoding backed by compress/gzip, at levels -2
// (HuffmanOnly) to 9. Its compressors and decompressors come from one
// codec.Codec for the whole program, shared by every middleware that uses
// the Encoding. Config.Jitter's padding is the gzip header's comment (a
// padding of 1 byte takes 2 there).
func Gzip() Encoding { return stdGzip }

var stdGzip = Encoding{Name: "gzip", Open: openGzip, OpenReader: openGzipReader}

// gzipCodec is gzpool's format: compress/gzip's writer and reader.
var gzipCodec = codec.Must(codec.New(codec.Format{
	Name:         "httpcompress: gzip",
	MinLevel:     gzip.HuffmanOnly,
	MaxLevel:     gzip.BestCompression,
	DefaultLevel: 6, // what compress/flate does with DefaultCompression
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return gzip.NewWriterLevel(w, level)
	},
	NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
	Park:            gzipPark,
}))

// gzipPark is an empty gzip member.
var gzipPark = []byte{
	0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, // header: deflate, no flags, OS unknown
	0x03, 0x00, // empty final block
	0, 0, 0, 0, 0, 0, 0, 0, // CRC-32 and size of nothing
}

// openGzipReader is gzip's OpenReader: a gzip stream needs no more memory
// than its 32 KiB window whatever its length, so the limit is the
// handler's to enforce.
func openGzipReader(r *codec.Reader, src io.Reader, _ int64) error {
	return gzipCodec.OpenReader(r, src)
}

func openGzip(w *codec.Writer, dst io.Writer, level, pad int) error {
	if pad == 0 {
		return gzipCodec.OpenWriter(w, dst, level)
	}
	return gzipCodec.OpenWriterWith(w, dst, level, func(c codec.Compressor) error {
		c.(*gzip.Writer).Comment = gzipComment(pad)
		return nil
	})
}

// gzipComment returns the gzip header comment that makes the header pad
// bytes longer than one without a comment: pad-1 bytes, and the zero byte
// that ends the comment. pad is 1 to 65535; a pad of 1 gets 2 bytes, as
// compress/gzip writes no empty comment.
func gzipComment(pad int) string {
	return padding()[:max(pad-1, 1)]
}

// padding is made on first use: 64 KiB that a program without Jitter never
// needs.
var padding = sync.OnceValue(func() string { return strings.Repeat("Padding-", 8192) })
