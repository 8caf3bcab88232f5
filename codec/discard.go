package codec

// Discard closes w without finishing the stream and without giving the
// compressor back to the pool: the garbage collector takes it, and the debug
// build does not report it as a leak. Discard of a closed Writer does
// nothing.
func (w *Writer) Discard() {
	if w == nil {
		panic("codec: Writer.Discard: nil *Writer")
	}
	if w.e == nil {
		return
	}
	e := w.e
	w.e = nil
	w.p.Discard(e)
}

// Discard closes r without giving the decompressor back to the pool: the
// garbage collector takes it, and the debug build does not report it as a
// leak. Discard of a closed Reader does nothing.
func (r *Reader) Discard() {
	if r == nil {
		panic("codec: Reader.Discard: nil *Reader")
	}
	if r.e == nil {
		return
	}
	e := r.e
	r.e = nil
	r.c.readers.Discard(e)
}
