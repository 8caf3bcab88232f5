package httpcompress

import (
	"hash/maphash"
	"net/http"
	"strings"
	"sync"

	"github.com/reuse-go/reuse"
)

// Handler returns a handler that compresses next's responses with gzip at
// the default level, for clients that accept it, with the zero Config's
// defaults. It is New(Config{}) applied to next.
func Handler(next http.Handler) http.Handler {
	return defaultMiddleware()(next)
}

var defaultMiddleware = sync.OnceValue(func() func(http.Handler) http.Handler {
	m, err := New(Config{})
	if err != nil {
		panic("httpcompress: Handler: " + err.Error()) // the zero Config is valid
	}
	return m
})

// New returns a middleware that compresses responses as c says. An invalid
// Config returns an error wrapping ErrConfig.
//
// The compressors and decompressors belong to the Encodings, not to New:
// those of Gzip() (and of khttp's Encodings) are pooled once for the whole
// program and shared by every middleware that uses them, so a program that
// calls New for each route holds no more compressors than are in use at
// once. The per-response state and prefix buffers are pooled per New.
func New(c Config) (func(http.Handler) http.Handler, error) {
	c, err := c.validate()
	if err != nil {
		return nil, err
	}
	e := &engine{c: c, seed: maphash.MakeSeed()}
	for i, enc := range c.Encodings {
		e.names[i] = enc.Name
	}
	e.decodes = decodes(c.Encodings)
	e.need = max(c.MinSize, sniffLen)
	if c.Jitter > 0 {
		e.need = max(e.need, c.JitterPrefix)
	}
	e.bufs.New = func() *[]byte {
		// At most maxPrealloc up front: MinSize and JitterPrefix may be
		// anything up to math.MaxInt, and the buffer grows as it fills.
		b := make([]byte, 0, min(e.need, maxPrealloc))
		return &b
	}
	return func(next http.Handler) http.Handler {
		if next == nil {
			panic("httpcompress: New: nil handler")
		}
		return &handler{e: e, next: next}
	}, nil
}

// sniffLen is how much of a body http.DetectContentType looks at.
const sniffLen = 512

// maxPrealloc bounds the capacity a prefix buffer is made with.
const maxPrealloc = 64 << 10

// engine is what the handlers made by one New share.
type engine struct {
	c       Config
	names   [maxEncodings]string
	decodes string       // the Accept-Encoding of a 415: the request codings decoded
	seed    maphash.Seed // keys Jitter's hash
	need    int          // the longest prefix a response buffers
	bufs    reuse.Pool[*[]byte]
	states  reuse.Pool[*state]
}

type handler struct {
	e    *engine
	next http.Handler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e := h.e
	var body *requestBody
	if e.c.RequestLimit > 0 {
		r, body = wrapRequest(r, e.c.RequestLimit, e.c.Encodings)
		if body == nil && !e.c.PassRequestEncodings && encoded(r) {
			unsupported(w, r, e.decodes)
			return
		}
	}
	enc, identityRefused := -1, false
	if r.Method != http.MethodHead {
		if ae := r.Header["Accept-Encoding"]; len(ae) > 0 {
			enc, identityRefused = negotiate(ae, e.names[:len(e.c.Encodings)])
		}
	}
	if enc < 0 {
		// Not compressing; the response still varies with Accept-Encoding.
		hdr := w.Header()
		if !hasToken(hdr["Vary"], "Accept-Encoding") {
			hdr["Vary"] = append(hdr["Vary"], "Accept-Encoding")
		}
		if body == nil {
			h.next.ServeHTTP(w, r)
			return
		}
	}
	if enc >= 0 && ifRangeByDate(r.Header) {
		r = withoutRange(r)
	}
	s := e.newState()
	s.rw, s.body = w, body
	if enc < 0 {
		s.state = statePlain // only here to answer 413 for a request bomb
	} else {
		s.enc = uint8(enc)
		s.anySize = identityRefused
		s.out.dst = w
		s.inm = r.Header["If-None-Match"]
		s.addVary()
	}
	rw := &responseWriter{s: s}
	defer rw.release()
	h.next.ServeHTTP(rw, r)
	s.finish()
}

// ifRangeByDate reports whether hdr holds a Range and an If-Range with a
// date rather than an entity tag.
func ifRangeByDate(hdr http.Header) bool {
	ir := hdr["If-Range"]
	if len(ir) == 0 || len(hdr["Range"]) == 0 {
		return false
	}
	v := strings.TrimSpace(ir[0])
	return !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "W/")
}

// withoutRange returns a copy of r without its Range and If-Range. A
// compressed response keeps the handler's Last-Modified, so a date cannot
// tell a client holding part of the compressed body from one holding part
// of the uncompressed one; without the Range the handler sends the whole
// body, as RFC 9110 section 14.2 lets a server do.
func withoutRange(r *http.Request) *http.Request {
	r = r.Clone(r.Context())
	delete(r.Header, "Range")
	delete(r.Header, "If-Range")
	return r
}

// hasToken reports whether the comma-separated field values hold token, or
// "*", ignoring case.
func hasToken(values []string, token string) bool {
	for _, v := range values {
		for len(v) > 0 {
			var item string
			if i := strings.IndexByte(v, ','); i >= 0 {
				item, v = v[:i], v[i+1:]
			} else {
				item, v = v, ""
			}
			item = strings.TrimSpace(item)
			if item == "*" || strings.EqualFold(item, token) {
				return true
			}
		}
	}
	return false
}
