package httpcompress

import (
	"errors"
	"hash/maphash"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/codec"
)

// The states of a response (state.state).
const (
	stateUndecided uint8 = iota // buffering a prefix, headers not sent
	statePlain                  // passing writes through
	stateCompress               // writing through cw
	stateFailed                 // the compressor could not start
	stateHijacked               // the handler took the connection
	stateDone                   // the handler returned
)

// errFailed is returned by the writes after the compressor failed to start
// (the first write returns the cause).
var errFailed = errors.New("httpcompress: the compressor could not start")

// state is what one response needs besides its writer: the
// responseWriter's methods move it from state to state, through the steps
// below. It is pooled per engine; only the writer of the response using it
// points to it.
type state struct {
	rw   http.ResponseWriter
	e    *engine
	cw   codec.Writer // the pooled compressor, while compressing
	out  outlet       // what cw writes to: rw, or io.Discard after a panic
	buf  *[]byte      // the pooled prefix buffer, while undecided
	body *requestBody
	inm  []string    // the request's If-None-Match values, for a 304
	hdr  http.Header // the handler's copy of the header after commit (see Header)

	state     uint8 // one of the state constants
	enc       uint8 // index of the negotiated encoding
	anySize   bool  // the client refused identity: no minimum size
	committed bool  // the handler wrote or set a final status (see commit)
	wrote     bool  // something reached rw
	status    int   // the status committed, not yet sent; 0: none yet, or an implicit 200
	need      int   // how much of the body to hold before deciding, planned at commit
	left      int64 // what the handler's Content-Length allows still, while undecided

	// Backing arrays for the header values this package sets, so that
	// setting them does not allocate. They are written when the state is
	// made and only read afterwards: a header map of an earlier response
	// may still point to them.
	vary [1]string
	ce   [maxEncodings][1]string
}

// newState returns a state for a response of e, reset.
func (e *engine) newState() *state {
	s := e.states.Get()
	if s != nil && !s.intact(e) {
		s = nil // a handler wrote into a header value it was given: start afresh
	}
	if s == nil {
		s = &state{e: e}
		s.vary[0] = "Accept-Encoding"
		for i, n := range e.names[:len(e.c.Encodings)] {
			s.ce[i][0] = n
		}
	}
	return s
}

// intact reports whether the header value arrays still hold what newState
// put there. They are only read, so reading them races with nothing.
func (s *state) intact(e *engine) bool {
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

// reset clears what a response left in s, for the next one. Field by
// field: the arrays behind the header values must not be written, an
// earlier response's header map may be read right now.
func (s *state) reset() {
	s.rw, s.buf, s.body, s.inm, s.out.dst, s.hdr = nil, nil, nil, nil, nil, nil
	s.status, s.need, s.enc, s.state, s.wrote, s.anySize, s.committed = 0, 0, 0, 0, false, false, false
}

// minSize is the smallest body compressed for this request.
func (s *state) minSize() int {
	if s.anySize {
		return 0
	}
	return s.e.c.MinSize
}

// addVary adds Accept-Encoding to Vary unless it is there already.
func (s *state) addVary() {
	hdr := s.rw.Header()
	v := hdr["Vary"]
	switch {
	case len(v) == 0:
		hdr["Vary"] = s.vary[:1:1]
	case !hasToken(v, "Accept-Encoding"):
		hdr["Vary"] = append(v, "Accept-Encoding")
	}
}

// commit fixes the status (0: an implicit 200) and plans the response, at
// the first Write or final WriteHeader, where net/http fixes its header:
// the plan does not change afterwards, so the prefix held never outgrows
// it.
func (s *state) commit(status int) error {
	s.committed = true
	s.status = status
	s.left = math.MaxInt64
	if n, ok := contentLength(s.rw.Header()); ok {
		s.left = n
	}
	plain, need := s.plan()
	if plain {
		return s.startPlain()
	}
	s.need = need
	return nil
}

// copyTrailers gives the underlying header the trailers the handler set in
// its copy: those declared in the Trailer field, and those named with
// http.TrailerPrefix, which net/http reads from the header at the end.
func (s *state) copyTrailers() {
	if s.hdr == nil {
		return
	}
	dst := s.rw.Header()
	for k, v := range s.hdr {
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
func (s *state) plan() (plain bool, need int) {
	hdr := s.rw.Header()
	if s.headersRuleOut(hdr) {
		return true, 0
	}
	need = s.minSize()
	if n, ok := contentLength(hdr); ok {
		if n < int64(s.minSize()) || n == 0 {
			return true, 0
		}
		need = 0 // big enough
	}
	if _, hasCT := hdr["Content-Type"]; !hasCT {
		need = max(need, sniffLen)
	}
	if s.e.c.Jitter > 0 {
		need = max(need, s.e.c.JitterPrefix)
	}
	return false, need
}

// headersRuleOut reports whether the status or the headers alone rule
// compression out: a response without a body or a partial one, a body the
// handler encoded or ranged itself, or a content type not to compress.
func (s *state) headersRuleOut(hdr http.Header) bool {
	if s.status != 0 && (!bodyAllowed(s.status) || s.status == http.StatusPartialContent) {
		return true
	}
	if len(hdr["Content-Encoding"]) > 0 || len(hdr["Content-Range"]) > 0 {
		return true
	}
	ct := hdr["Content-Type"]
	return len(ct) > 0 && !s.e.c.ContentTypes(ct[0])
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

// held returns the prefix held so far.
func (s *state) held() []byte {
	if s.buf == nil {
		return nil
	}
	return *s.buf
}

// hold appends p to the prefix buffer.
func (s *state) hold(p []byte) {
	if s.buf == nil {
		s.buf = s.e.bufs.Get()
	}
	*s.buf = append(*s.buf, p...)
}

func (s *state) stateErr() error {
	switch s.state {
	case stateFailed:
		return errFailed
	case stateHijacked:
		return http.ErrHijacked
	}
	return errFinished
}

// decide chooses between compressing and passing through, given the start
// of the body, and sends the headers. It is called once plan has not ruled
// compression out, with as much of the body as plan asked for, or less
// when a Flush vouches for the size (finishUndecided checks the size of a
// whole body first).
func (s *state) decide(prefix []byte) error {
	hdr := s.rw.Header()
	typ, sniffed := "", false
	if ct, ok := hdr["Content-Type"]; ok {
		if len(ct) > 0 {
			typ = ct[0]
		}
	} else if len(prefix) > 0 && bodyAllowed(s.statusOr200()) {
		typ, sniffed = http.DetectContentType(prefix[:min(len(prefix), sniffLen)]), true
	}
	if typ != "" && !s.e.c.ContentTypes(typ) {
		return s.startPlain() // net/http sniffs the same prefix
	}
	if sniffed {
		// Set now, as net/http would, or it would sniff compressed bytes.
		hdr["Content-Type"] = []string{typ}
	}
	return s.startCompress(prefix)
}

func (s *state) statusOr200() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}

// startPlain sends the status and the buffered prefix as they are.
func (s *state) startPlain() error {
	s.state = statePlain
	s.wrote = true
	if s.status == http.StatusNotModified {
		s.notModified()
	}
	if s.status != 0 {
		s.rw.WriteHeader(s.status)
	}
	if s.buf == nil {
		return nil
	}
	var err error
	if b := *s.buf; len(b) > 0 {
		_, err = s.rw.Write(b)
	}
	s.releaseBuf()
	return err
}

// startCompress rewrites the headers for the compressed response, sends
// them, and starts the compressor, writing the buffered prefix to it.
func (s *state) startCompress(prefix []byte) error {
	enc := &s.e.c.Encodings[s.enc]
	hdr := s.rw.Header()
	delete(hdr, "Content-Length")
	if !s.e.c.KeepAcceptRanges {
		delete(hdr, "Accept-Ranges")
	}
	if tags := hdr["Etag"]; len(tags) > 0 {
		s.rewriteETag(hdr, tags[0], enc.Name)
	}
	hdr["Content-Encoding"] = s.ce[s.enc][:1:1]
	s.addVary()
	s.wrote = true
	if s.status != 0 {
		s.rw.WriteHeader(s.status)
	}
	pad := 0
	if j := s.e.c.Jitter; j > 0 {
		n := min(len(prefix), s.e.c.JitterPrefix)
		pad = 1 + int(maphash.Bytes(s.e.seed, prefix[:n])%uint64(j))
	}
	if err := enc.Open(&s.cw, &s.out, s.e.c.Level, pad); err != nil {
		s.state = stateFailed
		s.releaseBuf()
		return err
	}
	s.state = stateCompress
	var err error
	if s.buf != nil {
		b := *s.buf
		if len(b) > 0 {
			_, err = s.cw.Write(b)
		}
		s.releaseBuf()
	}
	return err
}

// rewriteETag applies the ETag mode to a compressed response's tag.
func (s *state) rewriteETag(hdr http.Header, tag, coding string) {
	switch s.e.c.ETag {
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
func (s *state) notModified() {
	hdr := s.rw.Header()
	tags := hdr["Etag"]
	if len(tags) == 0 || s.e.c.ETag == ETagKeep || hasETag(s.inm, tags[0]) {
		return
	}
	s.rewriteETag(hdr, tags[0], s.e.c.Encodings[s.enc].Name)
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

func (s *state) releaseBuf() {
	if s.buf != nil {
		*s.buf = (*s.buf)[:0]
		s.e.bufs.Put(s.buf)
		s.buf = nil
	}
}

// finish ends the response after the handler returned normally.
func (s *state) finish() {
	switch s.state {
	case stateUndecided:
		s.finishUndecided()
	case stateCompress:
		s.cw.Close()
	case statePlain:
		if s.body != nil && s.body.tooLarge && !s.wrote {
			s.wrote = true
			s.rw.WriteHeader(http.StatusRequestEntityTooLarge)
		}
	}
	s.copyTrailers() // after the header went out, so that they stay trailers
	s.releaseBuf()
	s.state = stateDone
	if s.body != nil {
		s.body.Close()
	}
}

// finishUndecided is finish for a response whose handler returned before
// the response was decided: a request body over the limit with nothing
// written becomes a 413; otherwise what is buffered is sent, compressed or
// not as it would have been.
func (s *state) finishUndecided() {
	b := s.held()
	if s.body != nil && s.body.tooLarge && s.status == 0 && len(b) == 0 {
		s.status = http.StatusRequestEntityTooLarge
		s.startPlain()
		return
	}
	switch {
	case len(b) == 0:
		if s.committed && s.status == 0 {
			// An empty body written: send its 200 now, before
			// copyTrailers, as net/http would have at the Write.
			s.status = http.StatusOK
		}
		s.startPlain()
	case len(b) < s.minSize():
		s.startPlain() // the whole body, too small
	default:
		s.decide(b)
	}
	if s.state == stateCompress {
		s.cw.Close()
	}
}

// cleanup runs deferred. After a normal return finish has run and it does
// nothing; after a panic (or runtime.Goexit) it gives the compressor back
// without ending its stream, so the client sees a truncated response, never
// a complete-looking one, and lets the panic go on.
func (s *state) cleanup() {
	if s.state == stateDone {
		return
	}
	s.drop()
	s.state = stateDone
	if s.body != nil {
		s.body.Close()
	}
}

// drop gives the compressor back without ending its stream, and the
// prefix buffer without sending it.
func (s *state) drop() {
	if s.state == stateCompress {
		s.out.dst = io.Discard
		s.cw.Close()
	}
	s.releaseBuf()
}

// holdFrom is ReadFrom while the response is undecided: it reads r into
// the prefix buffer, committing and deciding as Write would, until the
// response is decided or r ends (io.EOF).
func (s *state) holdFrom(r io.Reader) (int64, error) {
	var total int64
	for s.state == stateUndecided {
		if s.buf == nil {
			s.buf = s.e.bufs.Get()
		}
		b := *s.buf
		need := s.need
		if !s.committed {
			// Not committed: the first bytes read commit, as they would
			// through Write; a source with nothing in it commits nothing,
			// as with net/http's ReadFrom.
			need = sniffLen
		} else if len(b) >= need {
			if err := s.decide(b); err != nil {
				return total, err
			}
			break
		}
		if len(b) == cap(b) {
			// Made smaller than need (see maxPrealloc): grow toward it.
			b = slices.Grow(b, min(need-len(b), max(cap(b), sniffLen)))
		}
		n, err := r.Read(b[len(b):min(need, cap(b))])
		*s.buf = b[:len(b)+n]
		total += int64(n)
		if n > 0 && !s.committed {
			if cerr := s.commit(0); cerr != nil {
				return total, cerr
			}
		}
		if n > 0 && s.state == stateUndecided {
			if int64(n) > s.left { // as in Write
				s.left = -1
				*s.buf = b
				return total - int64(n), http.ErrContentLength
			}
			s.left -= int64(n)
		}
		if err != nil {
			return total, err // io.EOF: r ended
		}
	}
	return total, nil
}

// compressFrom compresses what r holds through a pooled buffer.
func (s *state) compressFrom(r io.Reader) (int64, error) {
	cb := chunks.Get()
	defer chunks.Put(cb)
	return io.CopyBuffer(writerOnly{&s.cw}, readerOnly{r}, cb.b[:])
}

// chunks are the buffers ReadFrom compresses from.
var chunks = reuse.Pool[*chunk]{New: func() *chunk { return new(chunk) }}

// chunk is a buffer of ReadFrom's. A struct, not a pointer to an array:
// go1.26.8's compiler fails on slicing a *[N]byte that reuse.Pool's Get
// returned, inlined here ("bad ptr to array in slice go.shape.*uint8").
type chunk struct{ b [32 << 10]byte }

// outlet is what a response's compressor writes to: the ResponseWriter,
// or io.Discard after a panic, or nothing once the response is over.
type outlet struct {
	dst io.Writer
}

var errStreamClosed = errors.New("httpcompress: compressor used after the response ended")

func (o *outlet) Write(p []byte) (int, error) {
	if o.dst == nil {
		return 0, errStreamClosed
	}
	return o.dst.Write(p)
}

// WriteString passes a gzip header's comment on without copying it.
func (o *outlet) WriteString(p string) (int, error) {
	if o.dst == nil {
		return 0, errStreamClosed
	}
	return io.WriteString(o.dst, p)
}
