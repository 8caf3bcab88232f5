package gzpool

// Discard closes w without finishing the stream and without giving the
// compressor back to the pool, for a Writer abandoned on purpose (the
// request was cancelled, the output is not wanted): the garbage collector
// takes the compressor, and the debug build (-tags reusedebug of the reuse
// module) does not report it as a leak. After Discard, w behaves as after
// Close. Discard of a closed Writer does nothing.
func (w *Writer) Discard() {
	if w == nil {
		panic("gzpool: Writer.Discard: nil *Writer")
	}
	w.w.Discard()
}

// Discard closes r without giving the decompressor back to the pool, for a
// Reader abandoned on purpose: the garbage collector takes the decompressor,
// and the debug build does not report it as a leak. After Discard, r behaves
// as after Close. Discard of a closed Reader does nothing.
func (r *Reader) Discard() {
	if r == nil {
		panic("gzpool: Reader.Discard: nil *Reader")
	}
	r.r.Discard()
}
