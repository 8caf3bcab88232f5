package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/reuse-go/reuse/codec"
)

// refusing is a decompressor that refuses every stream as too large to
// hold, as khttp's zstd decoder refuses a window over its limit.
type refusing struct{}

func (refusing) Read([]byte) (int, error) { return 0, io.EOF }
func (refusing) Reset(io.Reader) error {
	return fmt.Errorf("window of 1 GiB: %w", codec.ErrTooLarge)
}

// TestOpenReaderTooLarge: a decompressor's refusal to hold a stream comes
// out of OpenReader as ErrTooLarge, not ErrCorrupt.
func TestOpenReaderTooLarge(t *testing.T) {
	c := codec.Must(codec.New(codec.Format{
		Name: "refusing", MinLevel: 1, MaxLevel: 1,
		NewCompressor:   func(w io.Writer, level int) (codec.Compressor, error) { return nil, errors.New("unused") },
		NewDecompressor: func() codec.Decompressor { return refusing{} },
		SingleUse:       true,
	}))
	var r codec.Reader
	err := c.OpenReader(&r, bytes.NewReader(nil))
	if !errors.Is(err, codec.ErrTooLarge) || errors.Is(err, codec.ErrCorrupt) {
		t.Errorf("OpenReader: %v; want ErrTooLarge and not ErrCorrupt", err)
	}
}
