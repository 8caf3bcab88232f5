package gzpool_test

import (
	"compress/gzip"
	"io"
	"testing"

	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/codectest"
)

// FuzzPooledMatchesFresh decodes an unrelated stream, then the fuzzed input,
// with the pooled decoder, and checks that it returns what a new compress/gzip
// reader does: the same bytes, accepted or rejected alike.
func FuzzPooledMatchesFresh(f *testing.F) {
	compress := func(src []byte, level int) []byte {
		z, err := gzpool.Compress(nil, src, level)
		if err != nil {
			f.Fatal(err)
		}
		return z
	}
	codectest.Seeds(f, compress)
	prev := codectest.Previous(compress)
	c := codectest.Codec{
		Decompress:  gzpool.Decompress,
		NewReader:   func(r io.Reader) (io.ReadCloser, error) { return gzpool.NewReader(r) },
		ErrTooLarge: gzpool.ErrTooLarge,
		ErrCorrupt:  gzpool.ErrCorrupt,
		Fresh:       func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		FreshName:   "compress/gzip",
	}
	f.Fuzz(func(t *testing.T, src []byte) { codectest.Check(t, c, prev, src) })
}
