package zlibpool

import (
	"bytes"
	"compress/zlib"
	"io"

	"github.com/reuse-go/reuse/codec"
)

// Errors returned by this package. They are the same values in gzpool,
// zlibpool, flatepool and kgzip, so errors.Is works across them.
var (
	// ErrTooLarge is wrapped by Decompress when the output would exceed its
	// limit. It wraps reuse.ErrTooLarge, the sentinel of every limit.
	ErrTooLarge = codec.ErrTooLarge
	// ErrCorrupt is wrapped, beside the underlying cause (zlib.ErrHeader,
	// zlib.ErrChecksum, zlib.ErrDictionary, a flate.CorruptInputError,
	// io.ErrUnexpectedEOF), when the input is not a complete, valid zlib
	// stream.
	ErrCorrupt = codec.ErrCorrupt
	// ErrClosed is returned by a Writer or Reader used after Close.
	ErrClosed = codec.ErrClosed
	// ErrLevel is wrapped when a compression level is out of range.
	ErrLevel = codec.ErrLevel
)

// park is an empty zlib stream: header, an empty final fixed block, Adler-32.
var park = []byte{0x78, 0x9c, 0x03, 0x00, 0, 0, 0, 1}

var pools = codec.Must(codec.New(codec.Format{
	Name:         "zlibpool",
	MinLevel:     zlib.HuffmanOnly,
	MaxLevel:     zlib.BestCompression,
	DefaultLevel: 6, // what compress/flate does with DefaultCompression
	NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
		return zlib.NewWriterLevel(w, level)
	},
	NewDecompressor: newDecompressor,
	Park:            park,
}))

// decompressor adapts zlib's reader, whose Reset takes a dictionary, to
// codec.Decompressor.
type decompressor struct {
	io.Reader
	rs zlib.Resetter
}

func newDecompressor() codec.Decompressor {
	r, err := zlib.NewReader(bytes.NewReader(park))
	if err != nil {
		panic("zlibpool: internal error: " + err.Error())
	}
	return &decompressor{Reader: r, rs: r.(zlib.Resetter)}
}

func (d *decompressor) Reset(r io.Reader) error { return d.rs.Reset(r, nil) }
