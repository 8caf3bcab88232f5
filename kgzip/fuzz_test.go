package kgzip_test

import (
	"io"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse/internal/codectest"
	"github.com/reuse-go/reuse/kgzip"
)

// FuzzPooledMatchesFresh decodes an unrelated stream, then the fuzzed input,
// with the pooled decoder, and checks that it returns exactly what a new
// klauspost reader does. It is not held to compress/gzip, from which
// klauspost differs on its own: it rejects reserved gzip flag bits, and
// within one stream decodes a block with an empty distance tree with the
// tree of the block before. TestRoundTrip compares valid streams with
// compress/gzip.
func FuzzPooledMatchesFresh(f *testing.F) {
	compress := func(src []byte, level int) []byte {
		z, err := kgzip.Compress(nil, src, level)
		if err != nil {
			f.Fatal(err)
		}
		return z
	}
	codectest.Seeds(f, compress)
	prev := codectest.Previous(compress)
	stream, _ := codectest.StaleStream(f, prev, flate.NewReader)
	f.Add(stream)
	c := codectest.Codec{
		Decompress:  kgzip.Decompress,
		NewReader:   func(r io.Reader) (io.ReadCloser, error) { return kgzip.NewReader(r) },
		ErrTooLarge: kgzip.ErrTooLarge,
		ErrCorrupt:  kgzip.ErrCorrupt,
		Fresh:       func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		FreshName:   "klauspost/compress/gzip",
	}
	f.Fuzz(func(t *testing.T, src []byte) { codectest.Check(t, c, prev, src) })
}
