package bufiopool

import "github.com/reuse-go/reuse/internal/debug"

// DiscardReader closes r without giving its buffer back to the pool: the
// garbage collector takes the buffer, and the debug build (-tags reusedebug)
// does not report it as a leak. Use it for a reader left in a state that
// should not be reused; it drops the reference to the underlying reader.
// After DiscardReader, r is closed: its methods panic and Close returns
// ErrClosed. DiscardReader of a closed Reader does nothing. (The method name
// Discard belongs to the embedded *bufio.Reader, which skips bytes.)
func DiscardReader(r *Reader) {
	if r == nil {
		panic("bufiopool: DiscardReader: nil *Reader")
	}
	br := r.Reader
	if br == nil {
		return
	}
	r.Reader = nil
	br.Reset(nil)
	if debug.Enabled {
		if c, ok := classOf(br.Size()); ok {
			debug.DiscardPtr(&readers[c], br)
		}
	}
}

// DiscardWriter closes w without flushing it and without giving its buffer
// back to the pool: buffered data is dropped, the garbage collector takes the
// buffer, and the debug build does not report it as a leak. After
// DiscardWriter, w is closed: its methods panic and Close returns ErrClosed.
// DiscardWriter of a closed Writer does nothing.
func DiscardWriter(w *Writer) {
	if w == nil {
		panic("bufiopool: DiscardWriter: nil *Writer")
	}
	bw := w.Writer
	if bw == nil {
		return
	}
	w.Writer = nil
	bw.Reset(nil)
	if debug.Enabled {
		if c, ok := classOf(bw.Size()); ok {
			debug.DiscardPtr(&writers[c], bw)
		}
	}
}
