package httpcompress

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/reuse-go/reuse"
)

// gzip levels: HuffmanOnly (-2) to BestCompression (9).
const (
	minGzipLevel = -2
	maxGzipLevel = 9
)

// GzipFrom returns a gzip Encoding whose raw deflate compressors newDeflater
// makes, one per use at first and then from a pool per level: a Deflater is
// Reset before each response and given back after it, having been written to
// only through the pool's own sink, so a pooled Deflater never references a
// ResponseWriter. The Encoding writes the gzip header (RFC 1952, with the
// padding of Config.Jitter as its comment) and trailer itself. Levels run
// from -2 to 9; newDeflater's error rejects those it does not support.
//
// This is how the klauspost-backed variant plugs klauspost/compress/flate in.
func GzipFrom(newDeflater func(level int) (Deflater, error)) Encoding {
	g := &gzipEncoder{newDeflater: newDeflater}
	return Encoding{Name: "gzip", NewWriter: g.open}
}

type gzipEncoder struct {
	newDeflater func(level int) (Deflater, error)
	pools       [maxGzipLevel - minGzipLevel + 1]reuse.Pool[*gzipStream]
}

// gzipStream is one pooled deflater with its gzip framing. The deflater
// writes only to out, whose dst is cleared when the stream is given back.
type gzipStream struct {
	d    Deflater
	pool *reuse.Pool[*gzipStream]
	out  sink
	crc  uint32
	size uint32
	buf  [10]byte
}

// sink forwards writes to dst.
type sink struct {
	dst io.Writer
}

var errStreamClosed = errors.New("httpcompress: compressor used after Close")

func (s *sink) Write(p []byte) (int, error) {
	if s.dst == nil {
		return 0, errStreamClosed
	}
	return s.dst.Write(p)
}

func (g *gzipEncoder) open(dst io.Writer, level, pad int) (Compressor, error) {
	if level < minGzipLevel || level > maxGzipLevel {
		return nil, fmt.Errorf("httpcompress: Gzip: level %d not in [%d, %d]", level, minGzipLevel, maxGzipLevel)
	}
	p := &g.pools[level-minGzipLevel]
	s := p.Get()
	if s == nil {
		d, err := g.newDeflater(level)
		if err != nil {
			return nil, err
		}
		s = &gzipStream{d: d, pool: p}
	}
	s.d.Reset(&s.out)
	s.out.dst = dst
	s.crc, s.size = 0, 0
	if err := s.writeHeader(level, pad); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

// padding is the comment that Jitter pads a gzip header with, written as
// many times as needed.
const padding = "Padding-Padding-Padding-Padding-Padding-Padding-Padding-Padding-"

func (s *gzipStream) writeHeader(level, pad int) error {
	h := s.buf[:]
	h[0], h[1], h[2], h[3] = 0x1f, 0x8b, 8, 0 // magic, deflate, flags
	if pad > 0 {
		h[3] = 0x10 // FCOMMENT
	}
	binary.LittleEndian.PutUint32(h[4:8], 0) // no modification time
	h[8] = 0
	switch level {
	case 1:
		h[8] = 4 // fastest
	case 9:
		h[8] = 2 // best
	}
	h[9] = 255 // OS unknown
	if _, err := s.out.Write(h); err != nil {
		return err
	}
	if pad == 0 {
		return nil
	}
	pad-- // the comment's terminating zero is part of the padding
	for pad > 0 {
		n := min(pad, len(padding))
		if _, err := io.WriteString(&s.out, padding[:n]); err != nil {
			return err
		}
		pad -= n
	}
	s.buf[0] = 0
	_, err := s.out.Write(s.buf[:1])
	return err
}

func (s *gzipStream) Write(p []byte) (int, error) {
	if s.out.dst == nil {
		return 0, errStreamClosed
	}
	s.crc = crc32.Update(s.crc, crc32.IEEETable, p)
	s.size += uint32(len(p))
	return s.d.Write(p)
}

func (s *gzipStream) Flush() error {
	if s.out.dst == nil {
		return errStreamClosed
	}
	return s.d.Flush()
}

// Close writes the end of the deflate stream and the trailer, then gives
// the stream back to its pool.
func (s *gzipStream) Close() error {
	if s.out.dst == nil {
		return errStreamClosed
	}
	err := s.d.Close()
	if err == nil {
		binary.LittleEndian.PutUint32(s.buf[0:4], s.crc)
		binary.LittleEndian.PutUint32(s.buf[4:8], s.size)
		_, err = s.out.Write(s.buf[:8])
	}
	s.release()
	return err
}

func (s *gzipStream) release() {
	s.out.dst = nil
	s.pool.Put(s)
}
