package bufiopool

import (
	"bufio"
	"errors"
	"io"
	"math/bits"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/debug"
)

const (
	// MinSize is the smallest buffer size, bufio's own minimum: a smaller
	// size asked of NewReader or NewWriter gets MinSize, as with
	// bufio.NewReaderSize.
	MinSize = 16

	// MaxPooledSize is the largest buffer size that is pooled. A larger size
	// gets a buffer of exactly that size, allocated for the call and left to
	// the garbage collector by Close, so that one large buffer is never kept
	// for later small uses (pitfall P7).
	MaxPooledSize = 64 << 10

	// minShift is log2(MinSize): class c holds buffers of 1<<(c+minShift).
	minShift = 4
	// classes is the number of size classes, MinSize to MaxPooledSize.
	classes = 13
)

// ErrClosed is returned by Close when the Reader or Writer was already closed.
var ErrClosed = errors.New("bufiopool: already closed")

// class returns the size class of a requested size and its buffer size: the
// smallest power of two >= max(size, MinSize), or ok == false above
// MaxPooledSize.
func class(size int) (c, classSize int, ok bool) {
	if size <= MinSize {
		return 0, MinSize, true
	}
	if size > MaxPooledSize {
		return 0, size, false
	}
	c = bits.Len(uint(size-1)) - minShift
	return c, 1 << (c + minShift), true
}

// classOf returns the class of a buffer of exactly n bytes, or ok == false
// when n is not a pooled size.
func classOf(n int) (c int, ok bool) {
	if n < MinSize || n > MaxPooledSize || n&(n-1) != 0 {
		return 0, false
	}
	return bits.Len(uint(n)) - 1 - minShift, true
}

// Pools, one per size class. A bufio.Reader or Writer enters a pool only
// through putReader or putWriter and leaves only through NewReader or
// NewWriter, so a debug build can watch both ends.
var (
	readers [classes]reuse.Pool[*bufio.Reader]
	writers [classes]reuse.Pool[*bufio.Writer]
)

// The debug build's reports name the handles the callers hold.
func init() {
	if debug.Enabled {
		for c := range classes {
			debug.Name(&readers[c], "bufiopool.Reader")
			debug.Name(&writers[c], "bufiopool.Writer")
		}
	}
}

// Reader is a *bufio.Reader on loan from a pool, with all of its methods.
// Close gives it back. Use the embedded *bufio.Reader directly where an API
// wants one (textproto.NewReader, http.ReadRequest), but only until Close.
type Reader struct {
	// Reader is the pooled reader. Close sets it to nil, so that any use of
	// this Reader after Close panics with a nil dereference on the caller's
	// goroutine instead of reading another user's data.
	*bufio.Reader
}

// NewReader returns a buffered reader over r with a buffer of at least size
// bytes: size rounded up to a power of two, at least MinSize. Above
// MaxPooledSize the buffer has exactly size bytes and is not pooled; a size
// too large to allocate panics, as bufio.NewReaderSize does. Its Size method
// reports the actual size.
//
// The caller must call Close when done. NewReader allocates only the small
// handle (8 bytes); the buffer comes from the pool.
func NewReader(r io.Reader, size int) *Reader {
	c, n, ok := class(size)
	var br *bufio.Reader
	if ok {
		br = readers[c].Get()
	}
	if br == nil {
		// Not bufio.NewReaderSize(r, n): it returns r itself when r is a
		// large enough *bufio.Reader, and Close would then reset and pool
		// the caller's reader.
		br = bufio.NewReaderSize(nil, n)
		if debug.Enabled && ok {
			// Made for the pool, not by it: tracked as if the pool had
			// handed it out, so that the debug build reports it if it
			// is never closed.
			debug.GotPtr(&readers[c], br)
		}
	}
	br.Reset(r)
	return &Reader{br}
}

// Close gives the buffer back to the pool. It discards any buffered data,
// drops the reference to the underlying reader, so that the pool never keeps
// it alive, and does not close the underlying reader. After Close the Reader
// must not be used: its methods panic. Close returns ErrClosed when called
// again, and nil otherwise.
func (r *Reader) Close() error {
	if r == nil {
		panic("bufiopool: Reader.Close: nil *Reader")
	}
	br := r.Reader
	if br == nil {
		return ErrClosed
	}
	r.Reader = nil
	putReader(br)
	return nil
}

func putReader(br *bufio.Reader) {
	br.Reset(nil) // forget the caller's reader and any buffered data
	if c, ok := classOf(br.Size()); ok {
		readers[c].Put(br)
	}
}

// Writer is a *bufio.Writer on loan from a pool, with all of its methods.
// Close flushes it and gives it back. Use the embedded *bufio.Writer directly
// where an API wants one, but only until Close.
type Writer struct {
	// Writer is the pooled writer. Close sets it to nil, so that any use of
	// this Writer after Close panics with a nil dereference on the caller's
	// goroutine instead of writing into another user's buffer.
	*bufio.Writer
}

// NewWriter returns a buffered writer to w with a buffer of at least size
// bytes, sized like NewReader's. The caller must call Close when done.
// NewWriter allocates only the small handle (8 bytes); the buffer comes from
// the pool.
func NewWriter(w io.Writer, size int) *Writer {
	c, n, ok := class(size)
	var bw *bufio.Writer
	if ok {
		bw = writers[c].Get()
	}
	if bw == nil {
		// Not bufio.NewWriterSize(w, n), which returns w itself when w is
		// a large enough *bufio.Writer; see NewReader.
		bw = bufio.NewWriterSize(nil, n)
		if debug.Enabled && ok {
			debug.GotPtr(&writers[c], bw) // see NewReader
		}
	}
	bw.Reset(w)
	return &Writer{bw}
}

// Close flushes the buffered data to the underlying writer and gives the
// buffer back to the pool, whether or not the flush succeeded: it returns the
// flush error, or the error a previous write left in the writer. Data that
// could not be flushed is discarded, and the error is cleared, before the
// buffer goes back, so neither reaches the next user; the reference to the
// underlying writer is dropped, so the pool never keeps it alive. Close does
// not close the underlying writer. After Close the Writer must not be used:
// its methods panic. Close returns ErrClosed when called again.
func (w *Writer) Close() error {
	if w == nil {
		panic("bufiopool: Writer.Close: nil *Writer")
	}
	bw := w.Writer
	if bw == nil {
		return ErrClosed
	}
	w.Writer = nil
	err := bw.Flush()
	putWriter(bw)
	return err
}

func putWriter(bw *bufio.Writer) {
	bw.Reset(nil) // forget the caller's writer, unflushed data and error
	if c, ok := classOf(bw.Size()); ok {
		writers[c].Put(bw)
	}
}
