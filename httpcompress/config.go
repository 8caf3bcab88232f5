package httpcompress

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/internal/toolarge"
)

// Errors returned by New and by the request bodies the handler decompresses.
var (
	// ErrConfig is wrapped by New when a Config is invalid.
	ErrConfig = errors.New("httpcompress: invalid config")
	// ErrRequestTooLarge is wrapped, beside an *http.MaxBytesError, by the
	// Read of a decompressed request body that would pass Config.RequestLimit.
	// It wraps reuse.ErrTooLarge, the sentinel of every limit.
	ErrRequestTooLarge error = toolarge.Sentinel("httpcompress: decompressed request body too large", reuse.ErrTooLarge)
)

// DefaultMinSize is the minimum size of a response body that Handler
// compresses, the value of a Config whose MinSize is 0. A body that fits in
// one 1500-byte packet gains little from compression.
const DefaultMinSize = 1024

// DefaultJitterPrefix is how much of the body Jitter hashes, and so buffers
// before the first byte is sent, when Config.JitterPrefix is 0.
const DefaultJitterPrefix = 64 << 10

// maxEncodings bounds Config.Encodings, so negotiation needs no allocation.
const maxEncodings = 8

// ETagMode says what a compressed response does with the handler's ETag.
type ETagMode uint8

// The ETag modes. RFC 9110 section 8.8.3 requires a compressed
// representation to carry a different entity tag from the uncompressed one.
//
// A mode applies to compressed responses and to the 304s that revalidate
// them (RFC 9110 section 15.4.5): a 304 to a request that accepts one of
// the Encodings gets the compressed response's tag, unless the request's
// If-None-Match lists the handler's tag exactly as the handler set it, which
// only a client holding the uncompressed response can send.
//
// If-Range: Last-Modified is kept on compressed responses, so a date cannot
// tell whether the client holds part of the compressed or of the
// uncompressed body. A request that accepts one of the Encodings and
// carries Range with an If-Range date reaches the handler without both, and
// gets the whole response, compressed if it qualifies, as RFC 9110 section
// 14.2 lets a server ignore Range; a request with an If-Range entity tag
// reaches the handler unchanged.
const (
	// ETagWeaken turns a strong ETag "x" into W/"x" on compressed
	// responses, as nginx does; a weak one stays. If-None-Match (weak
	// comparison) still matches, so 304s keep working, and an If-Range
	// with an entity tag (strong comparison) never matches the compressed
	// response's tag. The default.
	ETagWeaken ETagMode = iota
	// ETagSuffix appends "-" and the coding ("-gzip", "-zstd") inside the
	// quotes, as Apache does and gzhttp's SuffixETag option can. The handler
	// must strip the suffix from If-None-Match itself to answer 304s.
	ETagSuffix
	// ETagDrop removes the ETag from compressed responses (gzhttp's
	// DropETag).
	ETagDrop
	// ETagKeep leaves the ETag as the handler set it (gzhttp's default).
	// Only correct if the handler's ETag already depends on the encoding.
	ETagKeep
)

// Config configures a compressing handler. The zero Config is valid and is
// what Handler uses: gzip at the default level, bodies from 1 KiB, strong
// ETags weakened, no jitter, request bodies untouched.
type Config struct {
	// Level is the compression level, in compress/gzip's scale: 1
	// (BestSpeed) to 9 (BestCompression), or -1 (DefaultCompression),
	// HuffmanOnly (-2). 0 means DefaultCompression, not NoCompression, which
	// has no use in HTTP. Each encoding maps it to its own scale.
	Level int
	// MinSize is the smallest body compressed, in bytes. 0 means
	// DefaultMinSize; a negative value compresses bodies of any size. The
	// decision is made on a buffered prefix of at most MinSize bytes (or on
	// Content-Length when the handler set it), never on the whole body.
	MinSize int
	// ContentTypes reports whether a response of the given Content-Type
	// value is worth compressing. nil means Compressible.
	ContentTypes func(contentType string) bool
	// ETag says what compressed responses do with the handler's ETag.
	ETag ETagMode
	// KeepAcceptRanges keeps the handler's Accept-Ranges header on
	// compressed responses. By default it is removed, because a range of the
	// compressed body cannot be served.
	KeepAcceptRanges bool
	// Jitter, when positive, pads every compressed response by 1 to Jitter
	// bytes, a mitigation of BREACH-style attacks that learn a secret from
	// the compressed length. The padding goes in the gzip header's comment
	// (or a zstd skippable frame) and its length is a keyed hash of the
	// first JitterPrefix bytes of the body, so repeating a request does not
	// average it away, and the key is random per handler, so an attacker
	// cannot compute it. Cost: Jitter/2 bytes per response on average, a
	// hash of the prefix, and the first JitterPrefix bytes are held back
	// until the handler has written that much, returns or flushes. At most
	// 65535.
	Jitter int
	// JitterPrefix is how many bytes of the body the jitter hashes. 0 means
	// DefaultJitterPrefix. It should cover the secret.
	JitterPrefix int
	// RequestLimit, when positive, makes the handler decompress request
	// bodies sent with "Content-Encoding: gzip" or the name of one of the
	// Encodings that has an OpenReader (RFC 7694) before the wrapped handler
	// reads them, producing at most RequestLimit bytes: a
	// Read past it fails with an error that is an *http.MaxBytesError and
	// wraps ErrRequestTooLarge, and a handler that then writes nothing gets
	// a 413. A body in another coding, or in several (the
	// Content-Encoding "gzip, br"), gets 415 Unsupported Media Type with
	// the codings decoded in Accept-Encoding (RFC 7694 section 3), and the
	// wrapped handler does not run; PassRequestEncodings passes it
	// through instead. 0 leaves request bodies alone, in every coding.
	RequestLimit int64
	// PassRequestEncodings passes a request body in a coding RequestLimit
	// does not decode to the wrapped handler as it came, Content-Encoding
	// included, instead of answering 415: for a proxy that forwards it, or
	// a handler that decodes more codings itself.
	PassRequestEncodings bool
	// Encodings lists the codings offered, in order of preference when the
	// client accepts several equally. nil means Gzip(). At most 8.
	Encodings []Encoding
}

// An Encoding is one content coding a handler can produce, such as gzip,
// plugged in over a codec.Codec that pools its compressors and
// decompressors.
type Encoding struct {
	// Name is the coding's token, sent in Content-Encoding and matched
	// case-insensitively against Accept-Encoding and, for request bodies,
	// against Content-Encoding.
	Name string
	// Open points w at a pooled compressor that writes the encoded stream
	// to dst at level (a Config.Level, after 0 became -1), with pad bytes of
	// padding in the stream where its format allows (pad is 0 without
	// Jitter). An invalid level returns an error; New calls Open once to
	// check the level. The handler closes w exactly once.
	Open func(w *codec.Writer, dst io.Writer, level, pad int) error
	// OpenReader, if not nil, points r at a pooled decompressor of the
	// coding reading from src, for the request bodies that
	// Config.RequestLimit decompresses; limit is RequestLimit. The handler
	// stops reading at the limit, but the decompressor must not allocate
	// in proportion to what a stream asks for beyond it (a zstd window):
	// a stream that needs more memory than limit justifies returns an
	// error wrapping reuse.ErrTooLarge (as codec.ErrTooLarge does), from
	// OpenReader or from Read, which the handler reports as
	// ErrRequestTooLarge. Another error is the stream's: a bad header, or
	// io.EOF for an empty body.
	OpenReader func(r *codec.Reader, src io.Reader, limit int64) error
}

// validate checks c and returns the form the handler uses.
func (c Config) validate() (Config, error) {
	c.defaults()
	if err := c.checkRanges(); err != nil {
		return c, err
	}
	if c.JitterPrefix == 0 {
		c.JitterPrefix = DefaultJitterPrefix
	}
	if c.Encodings == nil {
		c.Encodings = []Encoding{stdGzip}
	}
	if len(c.Encodings) == 0 || len(c.Encodings) > maxEncodings {
		return c, fmt.Errorf("%w: %d encodings, want 1 to %d", ErrConfig, len(c.Encodings), maxEncodings)
	}
	c.Encodings = append([]Encoding(nil), c.Encodings...)
	for _, e := range c.Encodings {
		if err := checkEncoding(e, c.Level); err != nil {
			return c, err
		}
	}
	return c, nil
}

// defaults fills in the zero fields that have a default.
func (c *Config) defaults() {
	if c.Level == 0 {
		c.Level = gzip.DefaultCompression
	}
	if c.MinSize == 0 {
		c.MinSize = DefaultMinSize
	} else if c.MinSize < 0 {
		c.MinSize = 0
	}
	if c.ContentTypes == nil {
		c.ContentTypes = Compressible
	}
}

// checkRanges reports the numeric fields out of their range.
func (c *Config) checkRanges() error {
	switch {
	case c.ETag > ETagKeep:
		return fmt.Errorf("%w: ETag mode %d", ErrConfig, c.ETag)
	case c.Jitter < 0 || c.Jitter > 65535:
		return fmt.Errorf("%w: Jitter %d not in [0, 65535]", ErrConfig, c.Jitter)
	case c.JitterPrefix < 0:
		return fmt.Errorf("%w: negative JitterPrefix %d", ErrConfig, c.JitterPrefix)
	case c.RequestLimit < 0:
		return fmt.Errorf("%w: negative RequestLimit %d", ErrConfig, c.RequestLimit)
	}
	return nil
}

// checkEncoding reports an Encoding whose name cannot appear in
// Content-Encoding, or whose writer fails at level.
func checkEncoding(e Encoding, level int) error {
	if e.Name == "" || e.Open == nil || strings.ContainsAny(e.Name, ",; \t") ||
		strings.EqualFold(e.Name, "identity") || e.Name == "*" {
		return fmt.Errorf("%w: encoding %q", ErrConfig, e.Name)
	}
	var w codec.Writer
	if err := e.Open(&w, io.Discard, level, 0); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrConfig, e.Name, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrConfig, e.Name, err)
	}
	return nil
}

// Compressible is the default Config.ContentTypes. It reports false for
// media that are compressed already: images other than SVG, BMP, icons and
// TIFF; audio; video; fonts in WOFF and WOFF2; and archives and compressed
// streams (zip, gzip, bzip2, xz, zstd, brotli, 7z, rar, lz4, snappy). It
// reports true for everything else, including an empty type (nothing to go
// on, and most unlabeled bodies are text).
func Compressible(contentType string) bool {
	ct := strings.TrimSpace(contentType)
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = strings.TrimSpace(ct[:i])
	}
	slash := strings.IndexByte(ct, '/')
	if slash < 0 {
		return true
	}
	major, minor := ct[:slash], ct[slash+1:]
	switch {
	case strings.EqualFold(major, "text"):
		return true
	case strings.EqualFold(major, "audio"), strings.EqualFold(major, "video"):
		return false
	case strings.EqualFold(major, "image"):
		for _, ok := range [...]string{"svg+xml", "bmp", "x-icon", "vnd.microsoft.icon", "tiff", "x-ms-bmp"} {
			if strings.EqualFold(minor, ok) {
				return true
			}
		}
		return false
	case strings.EqualFold(major, "font"):
		return !strings.EqualFold(minor, "woff") && !strings.EqualFold(minor, "woff2")
	}
	for _, s := range [...]string{"zip", "compress", "bzip", "xz", "lzma", "zstd", "brotli", "7z", "rar", "lz4", "snappy", "stuffit"} {
		if containsFold(minor, s) {
			return false
		}
	}
	return true
}

// containsFold reports whether substr, lower case, is in s, ignoring case.
func containsFold(s, substr string) bool {
	for i := 0; i+len(substr) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(substr)], substr) {
			return true
		}
	}
	return false
}
