package flatepool

import (
	"io"

	"github.com/reuse-go/reuse/internal/codec"
)

// Compress appends the raw deflate (RFC 1951) stream of src, compressed at level, to dst and
// returns the extended slice. The result belongs to the caller: no pooled
// memory is returned. The spare capacity of dst must not overlap src. It
// does not allocate when dst has room for the output: at NoCompression that
// is len(src) plus 5 bytes per 64 KiB block plus 5 bytes, and
// incompressible input costs about as much at the other levels.
//
// The level is one of compress/flate's: HuffmanOnly (-2), DefaultCompression (-1),
// NoCompression (0), or BestSpeed (1) to BestCompression (9); any other
// level returns an error wrapping ErrLevel.
func Compress(dst, src []byte, level int) ([]byte, error) {
	return pools.Compress(dst, src, level)
}

// Decompress appends the decompressed content of the raw deflate (RFC 1951) stream src to dst
// and returns the extended slice. Bytes after the final block are ignored, as
// compress/flate ignores them. Raw deflate has no checksum: damage that still
// decodes goes unnoticed.
//
// Decompress produces at most limit bytes. Once the output would exceed limit
// it stops, having decompressed only limit+1 bytes, and returns an error
// wrapping ErrTooLarge. Corrupt or truncated input returns an error wrapping
// both ErrCorrupt and the cause. On any error the returned slice is dst: its
// length is unchanged, though bytes in its spare capacity may have been
// overwritten. The spare capacity of dst must not overlap src. It panics if
// limit is negative.
//
// Decompress does not allocate when dst has room for the output; otherwise
// it grows the output by doubling, from 512 bytes, up to an eighth of the
// limit (or 32 KiB). Longer output is decompressed twice, once to measure it
// and once into a buffer of its size, so that whatever the input Decompress
// allocates at most 1.25 times the limit plus 64 KiB.
func Decompress(dst, src []byte, limit int) ([]byte, error) {
	return pools.Decompress(dst, src, limit)
}

// Writer is a pooled raw deflate (RFC 1951) compressor, returned by NewWriter. It is an
// io.WriteCloser. A Writer is not safe for concurrent use. The zero Writer
// is closed.
//
// A Writer is a handle: it points to the pooled compressor until Close and to
// nothing afterwards, so a Writer used after Close returns ErrClosed and
// cannot reach a compressor that another goroutine has since taken from the
// pool.
type Writer struct {
	w codec.Writer
}

// NewWriter returns a Writer that compresses what is written to it at level
// and writes the raw deflate (RFC 1951) stream to w. An invalid level returns an error
// wrapping ErrLevel. NewWriter panics if w is nil.
//
// The caller must Close the Writer: Close finishes the stream and gives the
// compressor back to the pool. A Writer that is never closed is not reused.
func NewWriter(w io.Writer, level int) (*Writer, error) {
	h := new(Writer)
	if err := pools.OpenWriter(&h.w, w, level); err != nil {
		return nil, err
	}
	return h, nil
}

// Write compresses p and writes what is ready to the underlying writer. It
// returns ErrClosed after Close.
func (w *Writer) Write(p []byte) (int, error) { return w.w.Write(p) }

// Flush writes any pending data to the underlying writer, as flate.Writer's
// Flush does. It returns ErrClosed after Close.
func (w *Writer) Flush() error { return w.w.Flush() }

// Close writes the end of the stream, then gives the compressor back to the
// pool, which no longer references the underlying writer. The compressor is
// given back even when writing fails, and the error is returned. Close does
// not close the underlying writer. A second Close returns ErrClosed.
func (w *Writer) Close() error { return w.w.Close() }

// Reader is a pooled raw deflate (RFC 1951) decompressor, returned by NewReader. It is an
// io.ReadCloser. A Reader is not safe for concurrent use. The zero Reader
// is closed.
//
// Like Writer, a Reader is a handle: after Close it returns ErrClosed and
// cannot reach the pooled decompressor.
type Reader struct {
	r codec.Reader
}

// NewReader returns a Reader that decompresses the raw deflate (RFC 1951) stream read from r. A
// raw deflate stream has no header, so NewReader reads nothing and returns no
// error.
// NewReader panics if r is nil.
//
// If r is not an io.ByteReader the Reader reads it through a pooled buffer and
// may read past the end of the raw deflate (RFC 1951) stream, as compress/flate does.
//
// The caller must Close the Reader to give the decompressor back.
func NewReader(r io.Reader) (*Reader, error) {
	h := new(Reader)
	if err := pools.OpenReader(&h.r, r); err != nil {
		return nil, err
	}
	return h, nil
}

// Read decompresses into p. Its errors are compress/flate's: io.EOF at the end of the
// stream, a flate.CorruptInputError, and so on; ErrClosed after Close.
func (r *Reader) Read(p []byte) (int, error) { return r.r.Read(p) }

// Close gives the decompressor back to the pool, which no longer references
// the underlying reader. It does not close the underlying reader. A second
// Close returns ErrClosed.
func (r *Reader) Close() error { return r.r.Close() }
