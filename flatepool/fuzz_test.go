package flatepool_test

import (
	"compress/flate"
	"io"
	"testing"

	"github.com/reuse-go/reuse/flatepool"
	"github.com/reuse-go/reuse/internal/codectest"
)

// FuzzPooledMatchesFresh decodes an unrelated stream, then the fuzzed input,
// with the pooled decoder, and checks that it returns what a new compress/flate
// reader does: the same bytes, accepted or rejected alike.
func FuzzPooledMatchesFresh(f *testing.F) {
	compress := func(src []byte, level int) []byte {
		z, err := flatepool.Compress(nil, src, level)
		if err != nil {
			f.Fatal(err)
		}
		return z
	}
	codectest.Seeds(f, compress)
	prev := codectest.Previous(compress)
	c := codectest.Codec{
		Decompress:  flatepool.Decompress,
		NewReader:   func(r io.Reader) (io.ReadCloser, error) { return flatepool.NewReader(r) },
		ErrTooLarge: flatepool.ErrTooLarge,
		ErrCorrupt:  flatepool.ErrCorrupt,
		Fresh:       func(r io.Reader) (io.Reader, error) { return flate.NewReader(r), nil },
		FreshName:   "compress/flate",
	}
	f.Fuzz(func(t *testing.T, src []byte) { codectest.Check(t, c, prev, src) })
}
