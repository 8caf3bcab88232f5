package flatepool

import (
	"bytes"
	"compress/flate"
	"io"

	"github.com/reuse-go/reuse/codec"
)

// Errors returned by this package. They are the same values in gzpool,
// zlibpool, flatepool and kgzip, so errors.Is works across them.
var (
	// ErrTooLarge is wrapped by Decompress when the output would exceed its
	// limit. It wraps reuse.ErrTooLarge, the sentinel of every limit.
	ErrTooLarge = codec.ErrTooLarge
	// ErrCorrupt is wrapped, beside the underlying cause (a
	// flate.CorruptInputError, io.ErrUnexpectedEOF), when the input is not a
	// complete, valid deflate stream.
	ErrCorrupt = codec.ErrCorrupt
	// ErrClosed is returned by a Writer or Reader used after Close.
	ErrClosed = codec.ErrClosed
	// ErrLevel is wrapped when a compression level is out of range.
	ErrLevel = codec.ErrLevel
)

// park is an empty raw deflate stream: one empty final fixed block.
var park = []byte{0x03, 0x00}

var pools = codec.Must(codec.New(codec.Format{
	Name:         "flatepool",
	MinLevel:     flate.HuffmanOnly,
	MaxLevel:     flate.BestCompression,
	DefaultLevel: 6, // what compress/flate does with DefaultCompression
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return flate.NewWriter(w, level)
	},
	NewDecompressor: newDecompressor,
	Park:            park,
}))

// decompressor adapts flate's reader, whose Reset takes a dictionary, to
// codec.Decompressor.
type decompressor struct {
	io.Reader
	rs flate.Resetter
}

func newDecompressor() codec.Decompressor {
	r := flate.NewReader(bytes.NewReader(park))
	return &decompressor{Reader: r, rs: r.(flate.Resetter)}
}

func (d *decompressor) Reset(r io.Reader) error { return d.rs.Reset(r, nil) }
