package httpcompress

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// responseWriter is the http.ResponseWriter the wrapped handler sees: a
// handle made for one request, pointing to a pooled rwState until the
// handler returns and to nothing afterwards. A reference the handler leaks
// therefore reaches neither the state, which another response may be using,
// nor the compressor and prefix buffer, which are only reachable from the
// state while it serves this response. Making the handle costs one 8-byte
// allocation per request; the state is reused.
type responseWriter struct {
	s *rwState
}

// newState returns a state for a response of e, reset.
func (e *engine) newState() *rwState {
	s := e.states.Get()
	if s != nil && !s.intact(e) {
		s = nil // a handler wrote into a header value it was given: start afresh
	}
	if s == nil {
		s = &rwState{e: e}
		s.vary[0] = "Accept-Encoding"
		for i, n := range e.names[:len(e.c.Encodings)] {
			s.ce[i][0] = n
		}
	}
	return s
}

// intact reports whether the header value arrays still hold what newState
// put there. They are only read, so reading them races with nothing.
func (s *rwState) intact(e *engine) bool {
	if s.vary[0] != "Accept-Encoding" {
		return false
	}
	for i, n := range e.names[:len(e.c.Encodings)] {
		if s.ce[i][0] != n {
			return false
		}
	}
	return true
}

// release ends the response if the handler did not return normally,
// detaches the state from the handle and gives it back.
func (w *responseWriter) release() {
	s := w.s
	w.s = nil
	s.cleanup()
	// Field by field: the arrays behind the header values must not be
	// written, an earlier response's header map may be read right now.
	s.rw, s.buf, s.body, s.inm, s.out.dst, s.hdr = nil, nil, nil, nil, nil, nil
	s.status, s.need, s.enc, s.state, s.wrote, s.anySize, s.committed = 0, 0, 0, 0, false, false, false
	s.e.states.Put(s)
}

// finishedWriter answers for a handle whose handler has returned.
type finishedWriter struct{}

func (finishedWriter) Header() http.Header         { return http.Header{} }
func (finishedWriter) Write(p []byte) (int, error) { return 0, errFinished }
func (finishedWriter) WriteHeader(int)             {}

func (w *responseWriter) state() http.ResponseWriter {
	if s := w.s; s != nil {
		return s
	}
	return finishedWriter{}
}

// Header returns the underlying writer's header map.
func (w *responseWriter) Header() http.Header { return w.state().Header() }

// Write compresses p, or passes it through, once the response is decided;
// until then it buffers the start of the body.
func (w *responseWriter) Write(p []byte) (int, error) {
	if s := w.s; s != nil {
		return s.Write(p)
	}
	return 0, errFinished
}

// WriteHeader forwards informational (1xx) statuses at once and keeps any
// other until the response is decided.
func (w *responseWriter) WriteHeader(code int) {
	if s := w.s; s != nil {
		s.WriteHeader(code)
	}
}

// Flush sends what was written so far to the client, deciding the response
// first if need be: a handler that flushes is streaming, so the minimum size
// no longer applies.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush returning the error, for http.ResponseController.
func (w *responseWriter) FlushError() error {
	if s := w.s; s != nil {
		return s.FlushError()
	}
	return errFinished
}

// Hijack hands the connection to the handler, dropping anything buffered or
// compressed but not yet flushed.
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if s := w.s; s != nil {
		return s.Hijack()
	}
	return nil, nil, errFinished
}

// Unwrap returns the underlying ResponseWriter, for
// http.ResponseController; after the handler returned, a writer that
// fails.
func (w *responseWriter) Unwrap() http.ResponseWriter {
	if s := w.s; s != nil {
		return s.rw
	}
	return finishedWriter{}
}

// CloseNotify forwards to the underlying writer, for handlers written
// before contexts.
func (w *responseWriter) CloseNotify() <-chan bool {
	if s := w.s; s != nil {
		return s.CloseNotify()
	}
	return nil
}

// ReadFrom copies from r. A plain response goes to the underlying writer's
// ReadFrom (sendfile for a file on a TCP connection); a compressed one reads
// into a pooled buffer and compresses from it, so io.Copy allocates no
// buffer of its own.
func (w *responseWriter) ReadFrom(r io.Reader) (int64, error) {
	if s := w.s; s != nil {
		return s.ReadFrom(r)
	}
	return 0, errFinished
}
