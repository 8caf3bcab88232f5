package zlibpool_test

import (
	"compress/zlib"
	"io"
	"testing"

	"github.com/reuse-go/reuse/internal/codectest"
	"github.com/reuse-go/reuse/zlibpool"
)

// FuzzPooledMatchesFresh decodes an unrelated stream, then the fuzzed input,
// with the pooled decoder, and checks that it returns what a new compress/zlib
// reader does: the same bytes, accepted or rejected alike.
func FuzzPooledMatchesFresh(f *testing.F) {
	compress := func(src []byte, level int) []byte {
		z, err := zlibpool.Compress(nil, src, level)
		if err != nil {
			f.Fatal(err)
		}
		return z
	}
	codectest.Seeds(f, compress)
	prev := codectest.Previous(compress)
	c := codectest.Codec{
		Decompress:  zlibpool.Decompress,
		NewReader:   func(r io.Reader) (io.ReadCloser, error) { return zlibpool.NewReader(r) },
		ErrTooLarge: zlibpool.ErrTooLarge,
		ErrCorrupt:  zlibpool.ErrCorrupt,
		Fresh:       func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) },
		FreshName:   "compress/zlib",
	}
	f.Fuzz(func(t *testing.T, src []byte) { codectest.Check(t, c, prev, src) })
}
