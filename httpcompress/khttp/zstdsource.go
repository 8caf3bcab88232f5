package khttp

import (
	"fmt"
	"io"

	"github.com/reuse-go/reuse/codec"
)

// maxBlock is the most a zstd block decompresses to (RFC 8878 section
// 3.1.1.2.4).
const maxBlock = 128 << 10

// zstdWindowFor returns the window a frame needs at most for a caller that
// reads at most limit bytes, and its Window_Descriptor: the limit and one
// more block, rounded up to a size a frame header can hold. A valid frame
// that needs a larger window has passed the limit by the end of the block
// that needs it, so a decoder with this window reports the limit, not a
// match beyond its window. ok is false when that window is over
// zstdMaxWindow, or limit is not positive: no window is lowered then.
func zstdWindowFor(limit int64) (window uint64, descriptor byte, ok bool) {
	if limit <= 0 || limit > zstdMaxWindow {
		return 0, 0, false
	}
	need := uint64(limit) + 1 + maxBlock
	for wd := range 256 { // Window_Size = 2^(10+exponent) * (1 + mantissa/8)
		if w := windowSize(byte(wd)); w >= need {
			return w, byte(wd), w <= zstdMaxWindow
		}
	}
	return 0, 0, false
}

// windowSize is the Window_Size a Window_Descriptor stands for.
func windowSize(wd byte) uint64 {
	base := uint64(1) << (10 + wd>>3)
	return base + base/8*uint64(wd&7)
}

// The fields of a zstd stream, as zstdSource walks it.
const (
	inMagic       uint8 = iota // the 4 bytes that start a frame
	inSkipSize                 // a skippable frame's 4-byte size
	inDescriptor               // Frame_Header_Descriptor
	inWindow                   // Window_Descriptor
	inDictionary               // Dictionary_ID
	inContentSize              // Frame_Content_Size
	inBlockHeader              // Block_Header
	inBlock                    // a block's bytes, skipped
	inTail                     // a checksum or a skippable frame's bytes, skipped
	inUnknown                  // past what zstdSource understands: the decoder judges
)

// zstdSource is the reader a request body's zstd decoder reads, over the
// body. It walks the frames as they pass, without decoding them, and
//
//   - lowers a Window_Descriptor above the window zstdWindowFor gives to
//     that window: a window larger than what the caller will read can
//     only hold bytes past its limit, so the decoder needs no more, and
//     allocates no more (above zstdMaxWindow the decoder refuses the
//     frame);
//   - refuses, with an error wrapping codec.ErrTooLarge, a frame whose
//     Frame_Content_Size passes the limit, before the decoder allocates a
//     single-segment frame's window for it, and a frame whose window is
//     over zstdMaxWindow and cannot be lowered;
//   - hides the body's methods, such as the Bytes and Len of a
//     *bytes.Buffer, for which klauspost's decoder decodes a whole stream
//     at once, whatever its size.
type zstdSource struct {
	src    io.Reader
	limit  int64  // 0: none
	window uint64 // 0: no window is lowered
	wd     byte   // window's Window_Descriptor

	field uint8  // one of the in constants
	n     uint64 // bytes of the field still to come
	acc   [8]byte
	got   int  // bytes of the field in acc
	fhd   byte // the frame's Frame_Header_Descriptor
	last  bool // the block is the frame's last
}

// newZstdSource returns src walked for a caller that reads at most limit
// bytes (no limit when limit <= 0).
func newZstdSource(src io.Reader, limit int64) *zstdSource {
	s := &zstdSource{src: src, limit: max(limit, 0)}
	if w, wd, ok := zstdWindowFor(limit); ok {
		s.window, s.wd = w, wd
	}
	s.start(inMagic, 4)
	return s
}

func (s *zstdSource) Read(p []byte) (int, error) {
	n, err := s.src.Read(p)
	for i := 0; i < n && s.field != inUnknown; {
		if s.field == inBlock || s.field == inTail {
			k := min(uint64(n-i), s.n)
			i += int(k)
			if s.n -= k; s.n == 0 {
				s.endSkip()
			}
			continue
		}
		if s.field == inWindow {
			if w := windowSize(p[i]); s.window > 0 && w > s.window {
				p[i] = s.wd
			} else if w > zstdMaxWindow {
				s.field = inUnknown
				return i, windowTooLarge(w)
			}
		}
		s.acc[s.got] = p[i]
		s.got++
		i++
		if s.n--; s.n == 0 {
			if ferr := s.endField(); ferr != nil {
				s.field = inUnknown
				return i, ferr
			}
		}
	}
	return n, err
}

// start expects field, n > 0 bytes long.
func (s *zstdSource) start(field uint8, n uint64) {
	s.field, s.n, s.got = field, n, 0
}

// endField interprets the field in acc and moves to the next one.
func (s *zstdSource) endField() error {
	var v uint64 // the field, little-endian
	for i := s.got - 1; i >= 0; i-- {
		v = v<<8 | uint64(s.acc[i])
	}
	switch s.field {
	case inMagic:
		switch {
		case v == 0xFD2FB528:
			s.start(inDescriptor, 1)
		case v&^0xF == 0x184D2A50:
			s.start(inSkipSize, 4)
		default:
			s.field = inUnknown
		}
	case inSkipSize:
		s.skip(inTail, v)
	case inDescriptor:
		s.fhd = byte(v)
		if s.fhd&0x20 == 0 { // not Single_Segment: a Window_Descriptor follows
			s.start(inWindow, 1)
			return nil
		}
		return s.afterWindow()
	case inWindow:
		return s.afterWindow()
	case inDictionary:
		return s.afterDictionary()
	case inContentSize:
		return s.contentSize(v)
	case inBlockHeader:
		s.blockHeader(v)
	}
	return nil
}

// contentSize checks a Frame_Content_Size, v as the field holds it.
func (s *zstdSource) contentSize(v uint64) error {
	if s.got == 2 {
		v += 256
	}
	if s.limit > 0 && v > uint64(s.limit) {
		return frameTooLarge(v)
	}
	if s.fhd&0x20 != 0 && v > zstdMaxWindow { // Single_Segment: the window is the content
		return windowTooLarge(v)
	}
	s.start(inBlockHeader, 3)
	return nil
}

// blockHeader skips the block a Block_Header h starts.
func (s *zstdSource) blockHeader(h uint64) {
	s.last = h&1 != 0
	switch h >> 1 & 3 {
	case 0, 2: // Raw_Block, Compressed_Block: Block_Size bytes
		s.skip(inBlock, h>>3)
	case 1: // RLE_Block: one byte
		s.skip(inBlock, 1)
	default:
		s.field = inUnknown
	}
}

// frameTooLarge refuses a frame of n bytes, over the caller's limit. The
// message leaves the limit to the caller, which knows it: httpcompress's
// error for the body states it, and stating it here too made a 413's
// message say it twice.
func frameTooLarge(n uint64) error {
	return fmt.Errorf("khttp: zstd: a frame of %d bytes: %w", n, codec.ErrTooLarge)
}

// windowTooLarge refuses a window of n bytes, over zstdMaxWindow.
func windowTooLarge(n uint64) error {
	return fmt.Errorf("khttp: zstd: a window of %d bytes, over %d: %w", n, zstdMaxWindow, codec.ErrTooLarge)
}

func (s *zstdSource) afterWindow() error {
	if n := [...]uint64{0, 1, 2, 4}[s.fhd&3]; n > 0 {
		s.start(inDictionary, n)
		return nil
	}
	return s.afterDictionary()
}

func (s *zstdSource) afterDictionary() error {
	n := [...]uint64{0, 2, 4, 8}[s.fhd>>6]
	if n == 0 && s.fhd&0x20 != 0 {
		n = 1
	}
	if n > 0 {
		s.start(inContentSize, n)
		return nil
	}
	s.start(inBlockHeader, 3) // no Frame_Content_Size
	return nil
}

// skip passes n bytes of field (inBlock or inTail).
func (s *zstdSource) skip(field uint8, n uint64) {
	s.field, s.n, s.got = field, n, 0
	if n == 0 {
		s.endSkip()
	}
}

// endSkip follows a skipped run: the next block, the checksum, or the
// next frame.
func (s *zstdSource) endSkip() {
	switch {
	case s.field == inBlock && !s.last:
		s.start(inBlockHeader, 3)
	case s.field == inBlock && s.fhd&4 != 0: // Content_Checksum_Flag
		s.skip(inTail, 4)
	default:
		s.start(inMagic, 4)
	}
}
