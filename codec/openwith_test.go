package codec_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/internal/race"
)

// gzipCodec pools compress/gzip, as gzpool does, for the tests of
// OpenWriterWith, which needs the compressor's type.
var gzipCodec = codec.Must(codec.New(codec.Format{
	Name:     "gziptest",
	MinLevel: gzip.HuffmanOnly, MaxLevel: gzip.BestCompression, DefaultLevel: 6,
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return gzip.NewWriterLevel(w, level)
	},
	NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
	SingleUse:       true,
}))

// TestOpenWriterWith: set sees the compressor before anything is written,
// what it sets lasts one stream (the next one, opened without set, has no
// comment), and an error from set closes the handle and returns the
// compressor.
func TestOpenWriterWith(t *testing.T) {
	comment := func(c codec.Compressor) error {
		c.(*gzip.Writer).Comment = "hello"
		return nil
	}
	read := func(b []byte) (string, string) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return zr.Comment, string(body)
	}
	for i, set := range []func(codec.Compressor) error{comment, nil} {
		var buf bytes.Buffer
		var w codec.Writer
		if err := gzipCodec.OpenWriterWith(&w, &buf, 1, set); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("body"))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		c, body := read(buf.Bytes())
		if want := []string{"hello", ""}[i]; c != want || body != "body" {
			t.Errorf("stream %d: comment %q, body %q; want %q, body", i, c, body, want)
		}
	}
	boom := errors.New("boom")
	var buf bytes.Buffer
	var w codec.Writer
	err := gzipCodec.OpenWriterWith(&w, &buf, 1, func(codec.Compressor) error { return boom })
	if err != boom {
		t.Errorf("error from set: %v, want it returned", err)
	}
	if _, err := w.Write([]byte("x")); err != codec.ErrClosed || buf.Len() != 0 {
		t.Errorf("handle after a failed set: Write %v, %d bytes written; want ErrClosed, none", err, buf.Len())
	}
	if !race.Enabled {
		pad := 7
		n := testing.AllocsPerRun(100, func() {
			gzipCodec.OpenWriterWith(&w, io.Discard, 1, func(c codec.Compressor) error {
				c.(*gzip.Writer).Comment = "padding"[:pad]
				return nil
			})
			w.Close()
		})
		if n != 0 {
			t.Errorf("OpenWriterWith with a closure: %v allocations, want 0", n)
		}
	}
}
