package khttp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse"
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

// Gzip returns the gzip Encoding backed by klauspost/compress/flate, which
// is faster than compress/flate at every level and produces about the same
// size. Levels are klauspost's: -1 is its default, 5.
func Gzip() httpcompress.Encoding { return gzipEncoding }

var gzipEncoding = httpcompress.GzipFrom(func(level int) (httpcompress.Deflater, error) {
	return flate.NewWriter(nil, level)
})

// Zstd returns the zstd Encoding (RFC 8878), with a 1 MiB window (browsers
// accept up to 8 MiB) and one pooled encoder per speed. Config.Level maps to
// zstd's speeds: 1 and -2 to SpeedFastest, -1 and 2 to 5 to SpeedDefault, 6
// to 8 to SpeedBetterCompression, 9 to SpeedBestCompression. Jitter's
// padding is a skippable frame of 8 bytes plus the padding, before the data.
func Zstd() httpcompress.Encoding { return zstdEncoding }

var zstdEncoding = httpcompress.Encoding{Name: "zstd", NewWriter: openZstd}

// zstdWindow is the window of the zstd encoders.
const zstdWindow = 1 << 20

var zstdPools [4]reuse.Pool[*zstdStream] // by zstd.EncoderLevel - 1

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

// zstdStream is one pooled encoder. It writes only to out, whose dst is
// cleared when the stream goes back to its pool.
type zstdStream struct {
	enc  *zstd.Encoder
	pool *reuse.Pool[*zstdStream]
	out  sink
	hdr  [8]byte
}

func openZstd(dst io.Writer, level, pad int) (httpcompress.Compressor, error) {
	zl, err := zstdLevel(level)
	if err != nil {
		return nil, err
	}
	p := &zstdPools[zl-1]
	s := p.Get()
	if s == nil {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zl), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow), zstd.WithZeroFrames(true))
		if err != nil {
			return nil, err
		}
		s = &zstdStream{enc: enc, pool: p}
	}
	s.out.dst = dst
	s.enc.Reset(&s.out)
	if pad > 0 {
		if err := s.writePadding(pad); err != nil {
			s.release()
			return nil, err
		}
	}
	return s, nil
}

// padding fills skippable frames.
var padding [256]byte

// writePadding writes a skippable frame (RFC 8878 section 3.1.2) with pad
// bytes of content.
func (s *zstdStream) writePadding(pad int) error {
	binary.LittleEndian.PutUint32(s.hdr[0:4], 0x184D2A50)
	binary.LittleEndian.PutUint32(s.hdr[4:8], uint32(pad))
	if _, err := s.out.Write(s.hdr[:]); err != nil {
		return err
	}
	for pad > 0 {
		n, err := s.out.Write(padding[:min(pad, len(padding))])
		if err != nil {
			return err
		}
		pad -= n
	}
	return nil
}

var errClosed = errors.New("khttp: compressor used after Close")

func (s *zstdStream) Write(p []byte) (int, error) {
	if s.out.dst == nil {
		return 0, errClosed
	}
	return s.enc.Write(p)
}

func (s *zstdStream) Flush() error {
	if s.out.dst == nil {
		return errClosed
	}
	return s.enc.Flush()
}

// Close ends the frame and gives the encoder back to its pool.
func (s *zstdStream) Close() error {
	if s.out.dst == nil {
		return errClosed
	}
	err := s.enc.Close()
	s.release()
	return err
}

func (s *zstdStream) release() {
	s.out.dst = nil
	s.pool.Put(s)
}

// sink forwards writes to dst.
type sink struct {
	dst io.Writer
}

func (s *sink) Write(p []byte) (int, error) {
	if s.dst == nil {
		return 0, errClosed
	}
	return s.dst.Write(p)
}
