package codec_test

import (
	"bytes"
	"compress/lzw"
	"errors"
	"fmt"
	"io"

	"github.com/reuse-go/reuse/codec"
)

// lzwWriter adapts compress/lzw's Writer to codec.Compressor.
type lzwWriter struct{ *lzw.Writer }

func (w lzwWriter) Flush() error        { return nil } // LZW cannot flush early
func (w lzwWriter) Reset(dst io.Writer) { w.Writer.Reset(dst, lzw.LSB, 8) }

// lzwReader adapts compress/lzw's Reader to codec.Decompressor. Its Reset
// clears all state, so a reused Reader behaves as a new one.
type lzwReader struct{ *lzw.Reader }

func (r lzwReader) Reset(src io.Reader) error { r.Reader.Reset(src, lzw.LSB, 8); return nil }

// lzwPools pools LZW writers and readers, with one level, 0.
var lzwPools = codec.Must(codec.New(codec.Format{
	Name: "lzwpool",
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return lzwWriter{lzw.NewWriter(w, lzw.LSB, 8).(*lzw.Writer)}, nil
	},
	NewDecompressor: func() codec.Decompressor {
		return lzwReader{lzw.NewReader(nil, lzw.LSB, 8).(*lzw.Reader)}
	},
	Park: func() []byte { // an empty LZW stream
		var b bytes.Buffer
		lzw.NewWriter(&b, lzw.LSB, 8).Close()
		return b.Bytes()
	}(),
}))

// Pooling a format of your own: describe it in a Format, and the Codec gives
// it what gzpool has, one-shot calls with a limit and streaming handles.
func Example_format() {
	z, err := lzwPools.Compress(nil, []byte("hello, hello, hello, hello"), 0)
	if err != nil {
		panic(err)
	}
	out, err := lzwPools.Decompress(nil, z, 1<<10)
	fmt.Printf("%q %v\n", out, err)

	_, err = lzwPools.Decompress(nil, z, 5)
	fmt.Println(errors.Is(err, codec.ErrTooLarge))

	var r codec.Reader
	if err := lzwPools.OpenReader(&r, bytes.NewReader(z)); err != nil {
		panic(err)
	}
	all, err := io.ReadAll(&r)
	r.Close()
	fmt.Println(len(all), err, r.Close() == codec.ErrClosed)
	// Output:
	// "hello, hello, hello, hello" <nil>
	// true
	// 26 <nil> true
}
