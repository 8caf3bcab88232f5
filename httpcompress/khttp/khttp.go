package khttp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/httpcompress"
)

// Handler returns a handler that compresses next's responses with zstd or
// gzip, whichever the client prefers (zstd on a tie), with the zero
// Config's other defaults. It is New(httpcompress.Config{}) applied to next.
func Handler(next http.Handler) http.Handler {
	return defaultMiddleware()(next)
}

var defaultMiddleware = sync.OnceValue(func() func(http.Handler) http.Handler {
	m, err := New(httpcompress.Config{})
	if err != nil {
		panic("khttp: Handler: " + err.Error()) // the zero Config is valid
	}
	return m
})

// New is httpcompress.New with Encodings() as the default Encodings: the
// same Config, the same behaviour, klauspost/compress's encoders.
func New(c httpcompress.Config) (func(http.Handler) http.Handler, error) {
	if c.Encodings == nil {
		c.Encodings = Encodings()
	}
	return httpcompress.New(c)
}

// Encodings returns zstd then gzip, the order of preference New uses.
func Encodings() []httpcompress.Encoding {
	return []httpcompress.Encoding{Zstd(), Gzip()}
}

// Gzip returns the gzip Encoding backed by klauspost/compress, whose
// deflate is faster than compress/flate's at every level. Levels are
// klauspost's, -2 to 9, and -1 is its default, 5. Its compressors come from
// one codec.Codec for the whole program, shared by every middleware that
// uses the Encoding. Config.Jitter's padding is the gzip header's comment
// (a padding of 1 byte takes 2 there).
//
// Request bodies are read with klauspost's gzip reader, a new one for each
// body, about 40 KiB with its 32 KiB window. It is not pooled because
// klauspost's flate decoder keeps its Huffman tables across Reset: a reused
// one accepts a corrupt body, shaped by the body it read before (another
// client's), that a new one refuses (see kgzip's "Readers are not reused";
// TestRequestGzipForgetsPreviousBody fails when the readers are pooled). A
// server where that allocation matters can read gzip bodies with the
// compress/gzip readers httpcompress.Gzip pools, which Reset clears:
//
//	Encodings: []httpcompress.Encoding{khttp.Zstd(),
//		{Name: "gzip", Open: khttp.Gzip().Open, OpenReader: httpcompress.Gzip().OpenReader}},
func Gzip() httpcompress.Encoding { return gzipEncoding }

var gzipEncoding = httpcompress.Encoding{Name: "gzip", Open: openGzip, OpenReader: openGzipReader}

// openGzipReader is gzip's OpenReader: a gzip stream needs its 32 KiB
// window whatever its length, so the limit is the caller's to enforce.
func openGzipReader(r *codec.Reader, src io.Reader, _ int64) error {
	return gzipCodec.OpenReader(r, src)
}

// gzipCodec is kgzip's format. klauspost's flate decoder keeps its Huffman
// tables across Reset, so that a reused one can accept a corrupt stream
// that a new one rejects: decoders are single-use.
var gzipCodec = codec.Must(codec.New(codec.Format{
	Name:         "khttp gzip",
	MinLevel:     gzip.HuffmanOnly,
	MaxLevel:     gzip.BestCompression,
	DefaultLevel: 5, // what klauspost/compress/flate does with DefaultCompression
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return gzip.NewWriterLevel(w, level)
	},
	NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
	SingleUse:       true,
}))

func openGzip(w *codec.Writer, dst io.Writer, level, pad int) error {
	if pad == 0 {
		return gzipCodec.OpenWriter(w, dst, level)
	}
	return gzipCodec.OpenWriterWith(w, dst, level, func(c codec.Compressor) error {
		c.(*gzip.Writer).Comment = padding()[:max(pad-1, 1)]
		return nil
	})
}

// padding is gzip comment text, made on first use.
var padding = sync.OnceValue(func() string { return strings.Repeat("Padding-", 8192) })

// Zstd returns the zstd Encoding (RFC 8878), with a 1 MiB window (browsers
// accept up to 8 MiB) and one pooled encoder per speed. Config.Level maps to
// zstd's speeds: 1 and -2 to SpeedFastest, -1 and 2 to 5 to SpeedDefault, 6
// to 8 to SpeedBetterCompression, 9 to SpeedBestCompression. Jitter's
// padding is a skippable frame of 8 bytes plus the padding, before the data.
// Its encoders come from one codec.Codec for the whole program, shared by
// every middleware that uses the Encoding.
//
// Request bodies get a new decoder each, whose window is at most the
// limit and one 128 KiB block, rounded up to a size zstd can declare, and
// at most 8 MiB: a frame that declares a larger window has it lowered to
// that, since it can only hold bytes past the limit; a frame that needs
// more (its content size is over the limit, or it needs over 8 MiB) is
// refused with an error wrapping codec.ErrTooLarge. The decoder never
// decodes a body whole, even one with Bytes and Len (a *bytes.Buffer),
// which klauspost's decoder otherwise does.
func Zstd() httpcompress.Encoding { return zstdEncoding }

var zstdEncoding = httpcompress.Encoding{Name: "zstd", Open: openZstd, OpenReader: openZstdReader}

// openZstdReader is zstd's OpenReader: the decoder reads src through a
// zstdSource, which bounds its window by the limit.
func openZstdReader(r *codec.Reader, src io.Reader, limit int64) error {
	if src == nil {
		panic("khttp: Zstd().OpenReader: nil io.Reader")
	}
	return zstdCodec.OpenReader(r, newZstdSource(src, limit))
}

const (
	zstdWindow    = 1 << 20 // the encoders' window
	zstdMaxWindow = 8 << 20 // the largest window a request body may use (RFC 8878 section 3.1.1.1.2)
)

// zstdCodec pools encoders by zstd.EncoderLevel. Concurrency 1 keeps
// encoders and decoders synchronous: no goroutine outlives a call. Decoders
// are single-use, as kgzip's zstd example found a reused v1.18.0 decoder
// rejecting corrupt input with another error than a new one.
var zstdCodec = codec.Must(codec.New(codec.Format{
	Name:     "khttp zstd",
	MinLevel: int(zstd.SpeedFastest), MaxLevel: int(zstd.SpeedBestCompression),
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.EncoderLevel(level)), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow), zstd.WithZeroFrames(true))
	},
	NewDecompressor: func() codec.Decompressor {
		// MaxMemory bounds a single-segment frame's window, its content
		// size, as MaxWindow bounds the others'; DecodeBuffersBelow 0
		// turns off decoding a source with Bytes and Len whole.
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow),
			zstd.WithDecoderMaxMemory(zstdMaxWindow), zstd.WithDecodeBuffersBelow(0))
		if err != nil {
			panic("khttp: zstd.NewReader: " + err.Error()) // the options are valid
		}
		return zstdDecoder{d}
	},
	SingleUse: true,
}))

// zstdDecoder reports a frame refused for the memory it needs as too
// large, not corrupt. zstdSource refuses them first; the decoder's own
// limits are the second line.
type zstdDecoder struct{ *zstd.Decoder }

func (d zstdDecoder) Read(p []byte) (int, error) {
	n, err := d.Decoder.Read(p)
	return n, zstdErr(err)
}

func (d zstdDecoder) Reset(r io.Reader) error { return zstdErr(d.Decoder.Reset(r)) }

func zstdErr(err error) error {
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return fmt.Errorf("khttp: zstd: %w: %w (at most %d bytes of window)", codec.ErrTooLarge, err, zstdMaxWindow)
	}
	return err
}

func zstdLevel(level int) (zstd.EncoderLevel, error) {
	switch {
	case level == 1 || level == -2:
		return zstd.SpeedFastest, nil
	case level == -1 || (level >= 2 && level <= 5):
		return zstd.SpeedDefault, nil
	case level >= 6 && level <= 8:
		return zstd.SpeedBetterCompression, nil
	case level == 9:
		return zstd.SpeedBestCompression, nil
	}
	return 0, fmt.Errorf("khttp: zstd: level %d not in [-2, 9] or is 0", level)
}

func openZstd(w *codec.Writer, dst io.Writer, level, pad int) error {
	zl, err := zstdLevel(level)
	if err != nil {
		return err
	}
	if pad > 0 {
		// The encoder writes nothing before its first Write, Flush or
		// Close: the skippable frame goes straight to dst, first.
		if err := writePadding(dst, pad); err != nil {
			return err
		}
	}
	return zstdCodec.OpenWriter(w, dst, int(zl))
}

// zeros fill skippable frames.
var zeros [256]byte

// skippable is the magic number of a skippable frame, little-endian, and
// octets holds every byte value: writePadding writes from these arrays, so
// that a header it cannot keep on the stack (dst is an interface) costs no
// allocation.
var (
	skippable = [4]byte{0x50, 0x2A, 0x4D, 0x18} // 0x184D2A50
	octets    = func() (b [256]byte) {
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}()
)

// writePadding writes a skippable frame (RFC 8878 section 3.1.2) with pad
// bytes of content, pad < 1<<16: the magic number, the size as 4 bytes
// little-endian, and pad zeros.
func writePadding(dst io.Writer, pad int) error {
	lo, hi := pad&0xff, pad>>8&0xff
	for _, p := range [...][]byte{skippable[:], octets[lo : lo+1], octets[hi : hi+1], zeros[:2]} {
		if _, err := dst.Write(p); err != nil {
			return err
		}
	}
	for pad > 0 {
		n, err := dst.Write(zeros[:min(pad, len(zeros))])
		if err != nil {
			return err
		}
		pad -= n
	}
	return nil
}
