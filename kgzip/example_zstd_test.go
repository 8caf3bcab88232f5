package kgzip_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/internal/codectest"
)

// zstdPools pools klauspost's zstd encoders, one pool per level (1,
// SpeedFastest, to 4, SpeedBestCompression). Concurrency 1 keeps encoders
// and decoders synchronous: no goroutine outlives a call, and nothing needs
// closing before a value is pooled or dropped.
//
// Decoders are SingleUse, a new one per stream: FuzzZstdPooledMatchesFresh
// found, within seconds, that a zstd decoder of v1.18.0 that has read a
// large stream rejects some corrupt input with another error than a new
// decoder does (its buffers are larger, and which check runs first depends
// on them). That is state kept across Reset, so the decoder is not reused.
var zstdPools = codec.Must(codec.New(codec.Format{
	Name:     "zstdpool",
	MinLevel: int(zstd.SpeedFastest), MaxLevel: int(zstd.SpeedBestCompression),
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.EncoderLevel(level)), zstd.WithEncoderConcurrency(1))
	},
	NewDecompressor: func() codec.Decompressor {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		return d
	},
	SingleUse: true,
}))

// Pooling another format with the engine behind kgzip: zstd in a few lines,
// with the same limit, errors and handles.
func Example_zstd() {
	body := bytes.Repeat([]byte("pooled zstd, "), 100)
	z, err := zstdPools.Compress(nil, body, int(zstd.SpeedDefault))
	if err != nil {
		panic(err)
	}
	out, err := zstdPools.Decompress(nil, z, 1<<20)
	fmt.Println(len(z) < len(body), bytes.Equal(out, body), err)

	_, err = zstdPools.Decompress(nil, z, 100)
	fmt.Println(errors.Is(err, codec.ErrTooLarge))

	var w codec.Writer
	var buf bytes.Buffer
	if err := zstdPools.OpenWriter(&w, &buf, int(zstd.SpeedFastest)); err != nil {
		panic(err)
	}
	w.Write(body)
	fmt.Println(w.Close(), w.Close() == codec.ErrClosed)
	// Output:
	// true true <nil>
	// true
	// <nil> true
}

// FuzzZstdPooledMatchesFresh holds the example's format to the check every
// pooled codec passes: after another stream, a pooled zstd decoder reads
// any input as a new one does.
func FuzzZstdPooledMatchesFresh(f *testing.F) {
	compress := func(src []byte, level int) []byte {
		z, err := zstdPools.Compress(nil, src, min(max(level, 1), 4))
		if err != nil {
			f.Fatal(err)
		}
		return z
	}
	codectest.Seeds(f, compress)
	prev := codectest.Previous(compress)
	c := codectest.Codec{
		Decompress: zstdPools.Decompress,
		NewReader: func(r io.Reader) (io.ReadCloser, error) {
			h := new(codec.Reader)
			if err := zstdPools.OpenReader(h, r); err != nil {
				return nil, err
			}
			return h, nil
		},
		ErrTooLarge: codec.ErrTooLarge,
		ErrCorrupt:  codec.ErrCorrupt,
		Fresh: func(r io.Reader) (io.Reader, error) {
			return zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		},
		FreshName: "klauspost/compress/zstd",
	}
	f.Fuzz(func(t *testing.T, src []byte) { codectest.Check(t, c, prev, src) })
}
