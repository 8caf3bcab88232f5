package httpcompress

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/codec"
)

// requestBody decompresses a request body through a pooled decompressor,
// producing at most limit bytes.
type requestBody struct {
	src      io.ReadCloser
	only     readerOnly // src without its other methods, for the decompressor
	open     func(*codec.Reader, io.Reader, int64) error
	zr       codec.Reader // opened on the first Read, which reads the header
	opened   bool
	limit, n int64
	err      error // sticky: io.EOF, the decoder's error, or tooLarge
	tooLarge bool  // the limit was hit
	closed   bool
}

// wrapRequest returns a copy of r whose Body is r's decompressed, and the
// wrapper, when r was sent with one Content-Encoding that encs or gzip
// decodes; r and nil otherwise. r itself is left alone: net/http looks at
// its Body after the handler to learn whether the body was read to the end
// or closed early, and closes the connection in the second case rather than
// read what is left of the body as the next request.
func wrapRequest(r *http.Request, limit int64, encs []Encoding) (*http.Request, *requestBody) {
	ce := r.Header["Content-Encoding"]
	if len(ce) != 1 || r.Body == nil || r.Body == http.NoBody {
		return r, nil
	}
	open := requestDecoder(strings.TrimSpace(ce[0]), encs)
	if open == nil {
		return r, nil
	}
	b := &requestBody{src: r.Body, only: readerOnly{r.Body}, open: open, limit: limit}
	r = r.Clone(r.Context())
	r.Body = b
	delete(r.Header, "Content-Encoding")
	delete(r.Header, "Content-Length")
	r.ContentLength = -1
	return r, b
}

// encoded reports whether r has a body in a content coding other than
// identity.
func encoded(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	for _, v := range r.Header["Content-Encoding"] {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return true
			}
		}
	}
	return false
}

// unsupported answers a request whose body is in a coding the handler
// does not decode: 415 with the codings it decodes in Accept-Encoding, as
// RFC 7694 section 3 says.
func unsupported(w http.ResponseWriter, r *http.Request, decodes string) {
	w.Header().Set("Accept-Encoding", decodes)
	http.Error(w, fmt.Sprintf("httpcompress: request body in Content-Encoding %q, which is not decoded here (decoded: %s)",
		strings.Join(r.Header["Content-Encoding"], ", "), decodes), http.StatusUnsupportedMediaType)
}

// decodes returns the codings of request bodies decoded with encs: those
// with an OpenReader, in order, and gzip, as an Accept-Encoding value.
func decodes(encs []Encoding) string {
	var names []string
	gzip := false
	for _, e := range encs {
		if e.OpenReader != nil && !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, e.Name) }) {
			names = append(names, e.Name)
			gzip = gzip || strings.EqualFold(e.Name, "gzip")
		}
	}
	if !gzip {
		names = append(names, "gzip")
	}
	return strings.Join(names, ", ")
}

// requestDecoder returns the OpenReader of the first of encs named coding,
// or of Gzip() for gzip and x-gzip, or nil.
func requestDecoder(coding string, encs []Encoding) func(*codec.Reader, io.Reader, int64) error {
	if strings.EqualFold(coding, "x-gzip") {
		coding = "gzip"
	}
	for _, e := range encs {
		if e.OpenReader != nil && strings.EqualFold(coding, e.Name) {
			return e.OpenReader
		}
	}
	if strings.EqualFold(coding, "gzip") {
		return stdGzip.OpenReader
	}
	return nil
}

// tooLargeError is both an *http.MaxBytesError, which handlers already map
// to 413, and ErrRequestTooLarge.
type tooLargeError struct {
	mbe   http.MaxBytesError
	cause error // the decompressor's refusal, if it refused
}

func (e *tooLargeError) Error() string {
	s := ErrRequestTooLarge.Error() + ": limit " + strconv.FormatInt(e.mbe.Limit, 10) + " bytes"
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}

func (e *tooLargeError) Unwrap() []error {
	if e.cause != nil {
		return []error{&e.mbe, ErrRequestTooLarge, e.cause}
	}
	return []error{&e.mbe, ErrRequestTooLarge}
}

// Read decompresses into p. Past the limit it returns what fits and an
// error that is an *http.MaxBytesError; a stream whose header is corrupt
// returns an error wrapping codec.ErrCorrupt.
func (b *requestBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if !b.opened {
		// The body goes in without its other methods: klauspost's zstd
		// decoder decodes a source with Bytes and Len, such as a
		// *bytes.Buffer, whole before the first Read.
		if err := b.open(&b.zr, &b.only, b.limit); err != nil {
			return 0, b.fail(err)
		}
		b.opened = true
	}
	// Read one byte past the limit to detect it. room+1, not limit-n+1,
	// which overflows for a limit of math.MaxInt64.
	if room := b.limit - b.n; int64(len(p)) > room {
		p = p[:room+1]
	}
	n, err := b.zr.Read(p)
	b.n += int64(n)
	if b.n > b.limit {
		n -= int(b.n - b.limit)
		b.n = b.limit
		b.tooLarge = true
		b.err = &tooLargeError{mbe: http.MaxBytesError{Limit: b.limit}}
		b.release()
		return n, b.err
	}
	if err != nil && err != io.EOF {
		return n, b.fail(err)
	}
	if err == io.EOF {
		b.err = err
		b.release()
	}
	return n, err
}

// fail ends the body with the decompressor's error: a stream that needs
// more memory than the limit justifies is too large, as a stream past the
// limit is; anything else is the stream's.
func (b *requestBody) fail(err error) error {
	if errors.Is(err, reuse.ErrTooLarge) { // which codec.ErrTooLarge wraps
		b.tooLarge = true
		b.err = &tooLargeError{mbe: http.MaxBytesError{Limit: b.limit}, cause: err}
	} else {
		b.err = fmt.Errorf("httpcompress: Request.Body: %w", err)
	}
	b.release()
	return b.err
}

// release gives the decompressor back.
func (b *requestBody) release() {
	if b.opened {
		b.zr.Close()
		b.opened = false
	}
}

// Close gives the decompressor back and closes the compressed body. Reads
// after Close return an error.
func (b *requestBody) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.release()
	if b.err == nil || b.err == io.EOF {
		b.err = errBodyClosed
	}
	return b.src.Close()
}

var errBodyClosed = errors.New("httpcompress: Request.Body: read after Close")
