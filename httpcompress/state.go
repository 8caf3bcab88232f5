package httpcompress

import (
	"bufio"
	"errors"
	"hash/maphash"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/codec"
)

// The states of an rwState.
const (
	stateUndecided uint8 = iota // buffering a prefix, headers not sent
	statePlain                  // passing writes through
	stateCompress               // writing through cw
	stateFailed                 // the compressor could not start
	stateHijacked               // the handler took the connection
	stateDone                   // the handler returned
)

// errFinished is returned by a responseWriter used after its handler
// returned, as a handler that leaks it to a goroutine would.
var errFinished = errors.New("httpcompress: ResponseWriter used after the handler returned")

// errFailed is returned by the writes after the compressor failed to start
// (the first write returns the cause).
var errFailed = errors.New("httpcompress: the compressor could not start")

// minSize is the smallest body compressed for this request.
func (w *rwState) minSize() int {
	if w.anySize {
		return 0
	}
	return w.e.c.MinSize
}

// rwState is the state of one response, behind the responseWriter handle
// the handler sees. It is pooled per engine; only the handle of the
// response using it points to it.
type rwState struct {
	rw        http.ResponseWriter
	e         *engine
	cw        codec.Writer // the pooled compressor, while compressing
	buf       *[]byte      // the pooled prefix buffer, while undecided
	body      *requestBody
	inm       []string    // the request's If-None-Match values, for a 304
	out       sink        // what cw writes to: rw, or io.Discard after a panic
	status    int         // the status the handler committed, not yet sent; 0 before
	need      int         // how much of the body to hold before deciding, planned at commit
	hdr       http.Header // the handler's copy of the header after commit (see Header)
	enc       uint8       // index of the negotiated encoding
	state     uint8       // one of the state constants
	wrote     bool        // something reached rw
	anySize   bool        // the client refused identity: no minimum size
	left      int64       // what the handler's Content-Length allows still, while undecided
	committed bool        // the handler wrote or set a final status (see commit)
	// Backing arrays for the header values this package sets, so that
	// setting them does not allocate. They are written when the state is
	// made and only read afterwards: a header map of an earlier response
	// may still point to them.
	vary [1]string
	ce   [maxEncodings][1]string
}

// addVary adds Accept-Encoding to Vary unless it is there already.
func (w *rwState) addVary() {
	hdr := w.rw.Header()
	v := hdr["Vary"]
	switch {
	case len(v) == 0:
		hdr["Vary"] = w.vary[:1:1]
	case !hasToken(v, "Accept-Encoding"):
		hdr["Vary"] = append(v, "Accept-Encoding")
	}
}

// Header returns the header map. As with net/http, changes made after the
// first Write or final WriteHeader do not reach the response, except
// trailers: after that the handler gets a copy, whose trailers finish
// copies back.
func (w *rwState) Header() http.Header {
	if w.hdr != nil {
		return w.hdr
	}
	if w.committed {
		w.hdr = w.rw.Header().Clone()
		return w.hdr
	}
	return w.rw.Header()
}

// WriteHeader forwards informational (1xx) statuses at once and keeps any
// other until the response is decided.
func (w *rwState) WriteHeader(code int) {
	switch w.state {
	case stateUndecided:
	case statePlain, stateCompress:
		if w.committed {
			return // as net/http ignores it, even if nothing went out yet
		}
		if code >= 200 {
			w.wrote = true
		}
		w.rw.WriteHeader(code) // a response the middleware only watches (see finish)
		return
	default:
		return
	}
	if w.committed {
		return // committed: as with net/http, the first status wins, and a 1xx is too late
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.rw.WriteHeader(code)
		return
	}
	w.commit(code)
}

// commit fixes the status (0: an implicit 200) and plans the response, at
// the first Write or final WriteHeader, where net/http fixes its header:
// the plan does not change afterwards, so the prefix held never outgrows
// it.
func (w *rwState) commit(status int) error {
	w.committed = true
	w.status = status
	w.left = math.MaxInt64
	if n, ok := contentLength(w.rw.Header()); ok {
		w.left = n
	}
	plain, need := w.plan()
	if plain {
		return w.startPlain()
	}
	w.need = need
	return nil
}

// copyTrailers gives the underlying header the trailers the handler set in
// its copy: those declared in the Trailer field, and those named with
// http.TrailerPrefix, which net/http reads from the header at the end.
func (w *rwState) copyTrailers() {
	if w.hdr == nil {
		return
	}
	dst := w.rw.Header()
	for k, v := range w.hdr {
		if strings.HasPrefix(k, http.TrailerPrefix) || hasToken(dst["Trailer"], k) {
			dst[k] = v
		}
	}
}

// bodyAllowed reports whether a response with this status may have a body
// (RFC 9110 sections 15.2, 15.3.5 and 15.4.5).
func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}

// plan looks at the headers and the Content-Length the handler set. It
// reports plain when they alone rule compression out, and otherwise how
// many bytes of the body to buffer before deciding.
func (w *rwState) plan() (plain bool, need int) {
	hdr := w.rw.Header()
	if w.headersRuleOut(hdr) {
		return true, 0
	}
	need = w.minSize()
	if n, ok := contentLength(hdr); ok {
		if n < int64(w.minSize()) || n == 0 {
			return true, 0
		}
		need = 0 // big enough
	}
	if _, hasCT := hdr["Content-Type"]; !hasCT {
		need = max(need, sniffLen)
	}
	if w.e.c.Jitter > 0 {
		need = max(need, w.e.c.JitterPrefix)
	}
	return false, need
}

// headersRuleOut reports whether the status or the headers alone rule
// compression out: a response without a body or a partial one, a body the
// handler encoded or ranged itself, or a content type not to compress.
func (w *rwState) headersRuleOut(hdr http.Header) bool {
	if w.status != 0 && (!bodyAllowed(w.status) || w.status == http.StatusPartialContent) {
		return true
	}
	if len(hdr["Content-Encoding"]) > 0 || len(hdr["Content-Range"]) > 0 {
		return true
	}
	ct := hdr["Content-Type"]
	return len(ct) > 0 && !w.e.c.ContentTypes(ct[0])
}

// contentLength returns the Content-Length the handler set, if it is a
// valid one.
func contentLength(hdr http.Header) (int64, bool) {
	cl := hdr["Content-Length"]
	if len(cl) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(cl[0]), 10, 64)
	return n, err == nil && n >= 0
}

// Write buffers the start of the body until the response can be decided,
// then compresses it or passes it through.
func (w *rwState) Write(p []byte) (int, error) {
	switch w.state {
	case stateCompress:
		return w.cw.Write(p)
	case statePlain:
		w.wrote = true
		return w.rw.Write(p)
	case stateUndecided:
		if !w.committed {
			if err := w.commit(0); err != nil {
				return 0, err
			}
			if w.state != stateUndecided {
				return w.Write(p)
			}
		}
	default:
		return 0, w.stateErr()
	}
	var b []byte
	if w.buf != nil {
		b = *w.buf
	}
	if int64(len(p)) > w.left {
		// Past the handler's Content-Length: net/http fails this Write
		// and every later one, and so does the middleware while it holds
		// the body (compressing, it drops the length).
		w.left = -1
		return 0, http.ErrContentLength
	}
	w.left -= int64(len(p))
	need := w.need
	if len(b)+len(p) < need {
		w.hold(p)
		return len(p), nil
	}
	if len(b) == 0 {
		// The write alone is enough to decide on: no copy.
		if err := w.decide(p, false, false); err != nil {
			return 0, err
		}
		return w.Write(p)
	}
	k := need - len(b) // positive: what is held stays under need
	w.hold(p[:k])
	if err := w.decide(*w.buf, false, false); err != nil {
		return 0, err
	}
	n, err := w.Write(p[k:])
	return k + n, err
}

// hold appends p to the prefix buffer.
func (w *rwState) hold(p []byte) {
	if w.buf == nil {
		w.buf = w.e.bufs.Get()
	}
	*w.buf = append(*w.buf, p...)
}

func (w *rwState) stateErr() error {
	switch w.state {
	case stateFailed:
		return errFailed
	case stateHijacked:
		return http.ErrHijacked
	}
	return errFinished
}

// decide chooses between compressing and passing through, given the start
// of the body (the whole body when final), and sends the headers. It is
// called once plan has not ruled compression out; force (a Flush) ignores
// the minimum size.
func (w *rwState) decide(prefix []byte, final, force bool) error {
	hdr := w.rw.Header()
	typ, sniffed := "", false
	if ct, ok := hdr["Content-Type"]; ok {
		if len(ct) > 0 {
			typ = ct[0]
		}
	} else if len(prefix) > 0 && bodyAllowed(w.statusOr200()) {
		typ, sniffed = http.DetectContentType(prefix[:min(len(prefix), sniffLen)]), true
	}
	_ = force // a Flush, or Content-Length, vouches for the size
	if typ != "" && !w.e.c.ContentTypes(typ) || final && (len(prefix) < w.minSize() || len(prefix) == 0) {
		return w.startPlain() // net/http sniffs the same prefix
	}
	if sniffed {
		// Set now, as net/http would, or it would sniff compressed bytes.
		hdr["Content-Type"] = []string{typ}
	}
	return w.startCompress(prefix)
}

func (w *rwState) statusOr200() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// startPlain sends the status and the buffered prefix as they are.
func (w *rwState) startPlain() error {
	w.state = statePlain
	w.wrote = true
	if w.status == http.StatusNotModified {
		w.notModified()
	}
	if w.status != 0 {
		w.rw.WriteHeader(w.status)
	}
	if w.buf == nil {
		return nil
	}
	var err error
	if b := *w.buf; len(b) > 0 {
		_, err = w.rw.Write(b)
	}
	w.releaseBuf()
	return err
}

// startCompress rewrites the headers for the compressed response, sends
// them, and starts the compressor, writing the buffered prefix to it.
func (w *rwState) startCompress(prefix []byte) error {
	enc := &w.e.c.Encodings[w.enc]
	hdr := w.rw.Header()
	delete(hdr, "Content-Length")
	if !w.e.c.KeepAcceptRanges {
		delete(hdr, "Accept-Ranges")
	}
	if tags := hdr["Etag"]; len(tags) > 0 {
		w.rewriteETag(hdr, tags[0], enc.Name)
	}
	hdr["Content-Encoding"] = w.ce[w.enc][:1:1]
	w.addVary()
	w.wrote = true
	if w.status != 0 {
		w.rw.WriteHeader(w.status)
	}
	pad := 0
	if j := w.e.c.Jitter; j > 0 {
		n := min(len(prefix), w.e.c.JitterPrefix)
		pad = 1 + int(maphash.Bytes(w.e.seed, prefix[:n])%uint64(j))
	}
	if err := enc.Open(&w.cw, &w.out, w.e.c.Level, pad); err != nil {
		w.state = stateFailed
		w.releaseBuf()
		return err
	}
	w.state = stateCompress
	var err error
	if w.buf != nil {
		b := *w.buf
		if len(b) > 0 {
			_, err = w.cw.Write(b)
		}
		w.releaseBuf()
	}
	return err
}

// rewriteETag applies the ETag mode to a compressed response's tag.
func (w *rwState) rewriteETag(hdr http.Header, tag, coding string) {
	switch w.e.c.ETag {
	case ETagWeaken:
		if !strings.HasPrefix(tag, "W/") {
			hdr["Etag"] = []string{"W/" + tag}
		}
	case ETagSuffix:
		i := strings.LastIndexByte(tag, '"')
		if i <= 0 {
			i = len(tag)
		}
		hdr["Etag"] = []string{tag[:i] + "-" + coding + tag[i:]}
	case ETagDrop:
		delete(hdr, "Etag")
	}
}

// notModified gives a 304 the ETag of the response it revalidates (RFC
// 9110 section 15.4.5): the compressed one, rewritten as rewriteETag
// would, unless the request's If-None-Match holds the handler's tag as it
// is, which only a client that got the uncompressed response can have.
func (w *rwState) notModified() {
	hdr := w.rw.Header()
	tags := hdr["Etag"]
	if len(tags) == 0 || w.e.c.ETag == ETagKeep || hasETag(w.inm, tags[0]) {
		return
	}
	w.rewriteETag(hdr, tags[0], w.e.c.Encodings[w.enc].Name)
}

// hasETag reports whether the If-None-Match field values list tag, compared
// character for character.
func hasETag(values []string, tag string) bool {
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			start := 0
			if strings.HasPrefix(v, "W/") {
				start = 2
			}
			end := len(v)
			if len(v) > start && v[start] == '"' {
				if i := strings.IndexByte(v[start+1:], '"'); i >= 0 {
					end = start + i + 2
				}
			} else if i := strings.IndexByte(v, ','); i >= 0 {
				end = i // "*" or a malformed element
			}
			if strings.TrimSpace(v[:end]) == tag {
				return true
			}
			v = v[end:]
		}
	}
	return false
}

func (w *rwState) releaseBuf() {
	if w.buf != nil {
		*w.buf = (*w.buf)[:0]
		w.e.bufs.Put(w.buf)
		w.buf = nil
	}
}

// finish ends the response after the handler returned normally.
func (w *rwState) finish() {
	switch w.state {
	case stateUndecided:
		w.finishUndecided()
	case stateCompress:
		w.cw.Close()
	case statePlain:
		if w.body != nil && w.body.tooLarge && !w.wrote {
			w.wrote = true
			w.rw.WriteHeader(http.StatusRequestEntityTooLarge)
		}
	}
	w.copyTrailers() // after the header went out, so that they stay trailers
	w.releaseBuf()
	w.state = stateDone
	if w.body != nil {
		w.body.Close()
	}
}

// finishUndecided is finish for a response whose handler returned before
// the response was decided: a request body over the limit with nothing
// written becomes a 413; otherwise what is buffered is sent, compressed or
// not as it would have been.
func (w *rwState) finishUndecided() {
	var b []byte
	if w.buf != nil {
		b = *w.buf
	}
	if w.body != nil && w.body.tooLarge && w.status == 0 && len(b) == 0 {
		w.status = http.StatusRequestEntityTooLarge
		w.startPlain()
		return
	}
	if len(b) == 0 {
		if w.committed && w.status == 0 {
			// An empty body written: send its 200 now, before
			// copyTrailers, as net/http would have at the Write.
			w.status = http.StatusOK
		}
		w.startPlain()
	} else {
		w.decide(b, true, false)
	}
	if w.state == stateCompress {
		w.cw.Close()
	}
}

// cleanup runs deferred. After a normal return finish has run and it does
// nothing; after a panic (or runtime.Goexit) it gives the compressor back
// without ending its stream, so the client sees a truncated response, never
// a complete-looking one, and lets the panic go on.
func (w *rwState) cleanup() {
	if w.state == stateDone {
		return
	}
	if w.state == stateCompress {
		w.out.dst = io.Discard
		w.cw.Close()
	}
	w.releaseBuf()
	w.state = stateDone
	if w.body != nil {
		w.body.Close()
	}
}

// Flush sends what was written so far to the client, deciding the
// response first if need be: a handler that flushes is streaming, so the
// minimum size no longer applies.
func (w *rwState) Flush() { w.FlushError() }

// FlushError is Flush returning the error, for http.ResponseController.
func (w *rwState) FlushError() error {
	switch w.state {
	case stateUndecided:
		if !w.committed {
			if err := w.commit(0); err != nil {
				return err
			}
		}
		if w.state == stateUndecided {
			var b []byte
			if w.buf != nil {
				b = *w.buf
			}
			if err := w.decide(b, false, true); err != nil {
				return err
			}
		}
		return w.FlushError()
	case stateCompress:
		if err := w.cw.Flush(); err != nil {
			return err
		}
	case statePlain:
		w.wrote = true
	default:
		return w.stateErr()
	}
	return http.NewResponseController(w.rw).Flush()
}

// Hijack hands the connection to the handler, dropping anything buffered
// or compressed but not yet flushed.
func (w *rwState) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.state >= stateFailed {
		return nil, nil, w.stateErr()
	}
	conn, brw, err := http.NewResponseController(w.rw).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if w.state == stateCompress {
		w.out.dst = io.Discard
		w.cw.Close()
	}
	w.releaseBuf()
	w.state = stateHijacked
	return conn, brw, nil
}

// Unwrap returns the underlying ResponseWriter, for
// http.ResponseController.
func (w *rwState) Unwrap() http.ResponseWriter { return w.rw }

// CloseNotify forwards to the underlying writer, for handlers written
// before contexts.
func (w *rwState) CloseNotify() <-chan bool {
	if cn, ok := w.rw.(interface{ CloseNotify() <-chan bool }); ok {
		return cn.CloseNotify()
	}
	return nil
}

// ReadFrom copies from r. A plain response goes to the underlying writer's
// ReadFrom (sendfile for a file on a TCP connection); a compressed one reads
// into a pooled buffer and compresses from it, so io.Copy allocates no
// buffer of its own.
func (w *rwState) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	for w.state == stateUndecided {
		if w.buf == nil {
			w.buf = w.e.bufs.Get()
		}
		b := *w.buf
		need := w.need
		if !w.committed {
			// Not committed: the first bytes read commit, as they would
			// through Write; a source with nothing in it commits nothing,
			// as with net/http's ReadFrom.
			need = sniffLen
		} else if len(b) >= need {
			if err := w.decide(b, false, false); err != nil {
				return total, err
			}
			break
		}
		if len(b) == cap(b) {
			// Made smaller than need (see maxPrealloc): grow toward it.
			b = slices.Grow(b, min(need-len(b), max(cap(b), sniffLen)))
		}
		n, err := r.Read(b[len(b):min(need, cap(b))])
		*w.buf = b[:len(b)+n]
		total += int64(n)
		if n > 0 && !w.committed {
			if cerr := w.commit(0); cerr != nil {
				return total, cerr
			}
		}
		if n > 0 && w.state == stateUndecided {
			if int64(n) > w.left { // as in Write
				w.left = -1
				*w.buf = b
				return total - int64(n), http.ErrContentLength
			}
			w.left -= int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
	switch w.state {
	case statePlain:
		w.wrote = true
		if rf, ok := w.rw.(io.ReaderFrom); ok {
			n, err := rf.ReadFrom(r)
			return total + n, err
		}
		n, err := io.Copy(writerOnly{w.rw}, r)
		return total + n, err
	case stateCompress:
		n, err := w.compressFrom(r)
		return total + n, err
	}
	return total, w.stateErr()
}

// compressFrom compresses what r holds through a pooled buffer.
func (w *rwState) compressFrom(r io.Reader) (int64, error) {
	cb := chunks.Get()
	defer chunks.Put(cb)
	return io.CopyBuffer(writerOnly{&w.cw}, readerOnly{r}, cb.b[:])
}

// chunks are the buffers ReadFrom compresses from.
var chunks = reuse.Pool[*chunk]{New: func() *chunk { return new(chunk) }}

// chunk is a buffer of ReadFrom's. A struct, not a pointer to an array:
// go1.26.8's compiler fails on slicing a *[N]byte that reuse.Pool's Get
// returned, inlined here ("bad ptr to array in slice go.shape.*uint8").
type chunk struct{ b [32 << 10]byte }

// writerOnly and readerOnly hide every method but Write and Read, so that
// io.CopyBuffer uses the buffer it is given.
type writerOnly struct{ io.Writer }

type readerOnly struct{ io.Reader }

// sink is what a response's compressor writes to: the ResponseWriter, or
// io.Discard after a panic, or nothing once the response is over.
type sink struct {
	dst io.Writer
}

var errStreamClosed = errors.New("httpcompress: compressor used after the response ended")

func (s *sink) Write(p []byte) (int, error) {
	if s.dst == nil {
		return 0, errStreamClosed
	}
	return s.dst.Write(p)
}

// WriteString passes a gzip header's comment on without copying it.
func (s *sink) WriteString(p string) (int, error) {
	if s.dst == nil {
		return 0, errStreamClosed
	}
	return io.WriteString(s.dst, p)
}
