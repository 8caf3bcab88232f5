package httpcompress

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
)

// responseWriter is the http.ResponseWriter the wrapped handler sees, made
// for one request. Its state is pooled: s points to it until the handler
// returns and to nothing afterwards, so a writer the handler leaks reaches
// neither the state, which another response may be using, nor the
// compressor and prefix buffer, which only the state holds while it serves
// this response; every method then fails or does nothing. Making the
// writer costs one 8-byte allocation per request; the state is reused.
type responseWriter struct {
	s *state
}

// errFinished is returned by a responseWriter used after its handler
// returned, as a handler that leaks it to a goroutine would.
var errFinished = errors.New("httpcompress: ResponseWriter used after the handler returned")

// finishedWriter is what Unwrap returns after the handler returned.
type finishedWriter struct{}

func (finishedWriter) Header() http.Header         { return http.Header{} }
func (finishedWriter) Write(p []byte) (int, error) { return 0, errFinished }
func (finishedWriter) WriteHeader(int)             {}

// Header returns the header map. As with net/http, changes made after the
// first Write or final WriteHeader do not reach the response, except
// trailers: after that the handler gets a copy, whose trailers finish
// copies back.
func (w *responseWriter) Header() http.Header {
	s := w.s
	switch {
	case s == nil:
		return http.Header{}
	case s.hdr != nil:
		return s.hdr
	case s.committed:
		s.hdr = s.rw.Header().Clone()
		return s.hdr
	}
	return s.rw.Header()
}

// WriteHeader forwards informational (1xx) statuses at once and keeps any
// other until the response is decided. After the first Write or final
// status it does nothing, as net/http's does.
func (w *responseWriter) WriteHeader(code int) {
	s := w.s
	switch {
	case s == nil || s.state > stateCompress || s.committed:
		return
	case s.state != stateUndecided:
		// A response the middleware only watches for a 413 (see finish).
		s.wrote = s.wrote || code >= 200
		s.rw.WriteHeader(code)
	case code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols:
		s.rw.WriteHeader(code)
	default:
		s.commit(code)
	}
}

// Write holds the start of the body until the response can be decided,
// then compresses it or passes it through.
func (w *responseWriter) Write(p []byte) (int, error) {
	s := w.s
	if s == nil {
		return 0, errFinished
	}
	switch s.state {
	case stateCompress:
		return s.cw.Write(p)
	case statePlain:
		s.wrote = true
		return s.rw.Write(p)
	case stateUndecided:
	default:
		return 0, s.stateErr()
	}
	if !s.committed {
		if err := s.commit(0); err != nil {
			return 0, err
		}
		if s.state != stateUndecided {
			return w.Write(p)
		}
	}
	if int64(len(p)) > s.left {
		// Past the handler's Content-Length: net/http fails this Write
		// and every later one, and so does the middleware while it holds
		// the body (compressing, it drops the length).
		s.left = -1
		return 0, http.ErrContentLength
	}
	s.left -= int64(len(p))
	held := s.held()
	if len(held)+len(p) < s.need {
		s.hold(p)
		return len(p), nil
	}
	if len(held) == 0 {
		// The write alone is enough to decide on: no copy.
		if err := s.decide(p); err != nil {
			return 0, err
		}
		return w.Write(p)
	}
	k := s.need - len(held) // positive: what is held stays under need
	s.hold(p[:k])
	if err := s.decide(s.held()); err != nil {
		return 0, err
	}
	n, err := w.Write(p[k:])
	return k + n, err
}

// ReadFrom copies from r. A plain response goes to the underlying writer's
// ReadFrom (sendfile for a file on a TCP connection); a compressed one reads
// into a pooled buffer and compresses from it, so io.Copy allocates no
// buffer of its own.
func (w *responseWriter) ReadFrom(r io.Reader) (int64, error) {
	s := w.s
	if s == nil {
		return 0, errFinished
	}
	total, err := s.holdFrom(r)
	if err == io.EOF {
		return total, nil
	}
	if err != nil {
		return total, err
	}
	switch s.state {
	case statePlain:
		s.wrote = true
		if rf, ok := s.rw.(io.ReaderFrom); ok {
			n, err := rf.ReadFrom(r)
			return total + n, err
		}
		n, err := io.Copy(writerOnly{s.rw}, r)
		return total + n, err
	case stateCompress:
		n, err := s.compressFrom(r)
		return total + n, err
	}
	return total, s.stateErr()
}

// Flush sends what was written so far to the client, deciding the
// response first if need be: a handler that flushes is streaming, so the
// minimum size no longer applies.
func (w *responseWriter) Flush() { w.FlushError() }

// FlushError is Flush returning the error, for http.ResponseController.
func (w *responseWriter) FlushError() error {
	s := w.s
	if s == nil {
		return errFinished
	}
	if s.state == stateUndecided && !s.committed {
		if err := s.commit(0); err != nil {
			return err
		}
	}
	switch s.state {
	case stateUndecided:
		if err := s.decide(s.held()); err != nil {
			return err
		}
		return w.FlushError()
	case stateCompress:
		if err := s.cw.Flush(); err != nil {
			return err
		}
	case statePlain:
		s.wrote = true
	default:
		return s.stateErr()
	}
	return http.NewResponseController(s.rw).Flush()
}

// Hijack hands the connection to the handler, dropping anything held or
// compressed but not yet flushed.
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	s := w.s
	if s == nil {
		return nil, nil, errFinished
	}
	if s.state >= stateFailed {
		return nil, nil, s.stateErr()
	}
	conn, brw, err := http.NewResponseController(s.rw).Hijack()
	if err != nil {
		return nil, nil, err
	}
	s.drop()
	s.state = stateHijacked
	return conn, brw, nil
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
		if cn, ok := s.rw.(interface{ CloseNotify() <-chan bool }); ok {
			return cn.CloseNotify()
		}
	}
	return nil
}

// release runs deferred when the handler returns or panics: it ends the
// response if finish did not, detaches the state from the writer and gives
// it back.
func (w *responseWriter) release() {
	s := w.s
	w.s = nil
	s.cleanup()
	s.reset()
	s.e.states.Put(s)
}

// writerOnly and readerOnly hide every method but Write and Read, so that
// io.CopyBuffer uses the buffer it is given.
type writerOnly struct{ io.Writer }

type readerOnly struct{ io.Reader }
