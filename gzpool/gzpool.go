package gzpool

import (
	"compress/gzip"
	"encoding/binary"
	"io"

	"github.com/reuse-go/reuse/codec"
)

// Errors returned by this package. They are the same values in gzpool,
// zlibpool, flatepool and kgzip, so errors.Is works across them.
var (
	// ErrTooLarge is wrapped by Decompress when the output would exceed its
	// limit. It wraps reuse.ErrTooLarge, the sentinel of every limit.
	ErrTooLarge = codec.ErrTooLarge
	// ErrCorrupt is wrapped, beside the underlying cause (gzip.ErrHeader,
	// gzip.ErrChecksum, a flate.CorruptInputError, io.ErrUnexpectedEOF),
	// when the input is not a complete, valid gzip stream.
	ErrCorrupt = codec.ErrCorrupt
	// ErrClosed is returned by a Writer or Reader used after Close.
	ErrClosed = codec.ErrClosed
	// ErrLevel is wrapped when a compression level is out of range.
	ErrLevel = codec.ErrLevel
)

// park is an empty gzip member: header, an empty final fixed block, trailer.
var park = []byte{
	0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, // header: deflate, no flags, OS unknown
	0x03, 0x00, // empty final block
	0, 0, 0, 0, 0, 0, 0, 0, // CRC-32 and size of nothing
}

var pools = codec.Must(codec.New(codec.Format{
	Name:         "gzpool",
	MinLevel:     gzip.HuffmanOnly,
	MaxLevel:     gzip.BestCompression,
	DefaultLevel: 6, // what compress/flate does with DefaultCompression
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return gzip.NewWriterLevel(w, level)
	},
	NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
	Park:            park,
	SizeHint:        sizeHint,
}))

// sizeHint reads the uncompressed size, modulo 2³², from the trailer of the
// last member. It is only a guess: the input is untrusted and may hold
// several members.
func sizeHint(src []byte) int {
	if len(src) < 20 {
		return 0
	}
	return int(binary.LittleEndian.Uint32(src[len(src)-4:]))
}
