package codec_test

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/reuse-go/reuse/codec"
)

// TestNewLevelRange gives New level ranges at the ends of int, where
// MaxLevel-MinLevel overflows: New must refuse every range of more than
// 256 levels with an error wrapping ErrFormat, never panic, and a Codec it
// accepts must compress at both of its ends.
func TestNewLevelRange(t *testing.T) {
	const minInt, maxInt = math.MinInt, math.MaxInt
	for _, tt := range []struct {
		min, max int
		ok       bool
	}{
		// Spans that overflow int: the four.
		{minInt, maxInt, false},
		{-2, maxInt, false},
		{minInt, 9, false},
		{-200, maxInt - 100, false},
		// Spans that fit, one past the 256 levels a Codec holds.
		{maxInt - 256, maxInt, false},
		{minInt, minInt + 256, false},
		{0, 256, false},
		{-1, 255, false},
		// Reversed.
		{3, 2, false},
		{maxInt, minInt, false},
		{0, minInt, false},
		// Valid: gzip's, one level, and 256 levels at each end of int.
		{gzip.HuffmanOnly, gzip.BestCompression, true},
		{0, 0, true},
		{maxInt, maxInt, true},
		{minInt, minInt, true},
		{maxInt - 255, maxInt, true},
		{minInt, minInt + 255, true},
		{-128, 127, true},
	} {
		t.Run(fmt.Sprintf("levels=%d..%d", tt.min, tt.max), func(t *testing.T) {
			c, err := newLevels(tt.min, tt.max)
			if !tt.ok {
				if !errors.Is(err, codec.ErrFormat) || c != nil {
					t.Fatalf("New = (Codec: %t), %v; want an error wrapping ErrFormat", c != nil, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			for _, level := range []int{tt.min, tt.max} {
				z, err := compress(c, level)
				if err != nil {
					t.Fatalf("Compress at level %d: %v", level, err)
				}
				out, err := c.Decompress(nil, z, 100)
				if string(out) != "hello" || err != nil {
					t.Fatalf("Decompress(Compress at level %d) = %q, %v; want \"hello\"", level, out, err)
				}
			}
			for _, level := range []int{tt.min - 1, tt.max + 1} {
				if level >= tt.min && level <= tt.max {
					continue // wrapped around the end of int
				}
				if _, err := compress(c, level); !errors.Is(err, codec.ErrLevel) {
					t.Errorf("Compress at level %d: %v, want an error wrapping ErrLevel", level, err)
				}
			}
		})
	}
}

// newLevels is New for a gzip Format with levels lo to hi, whose compressor
// ignores the level; a panic is returned as an error that wraps nothing.
func newLevels(lo, hi int) (c *codec.Codec, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("New panicked: %v", r)
		}
	}()
	return codec.New(codec.Format{
		Name: "levels", MinLevel: lo, MaxLevel: hi,
		NewCompressor:   func(w io.Writer, _ int) (codec.Compressor, error) { return gzip.NewWriter(w), nil },
		NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
		SingleUse:       true,
	})
}

// compress is Compress of "hello", with a panic returned as an error.
func compress(c *codec.Codec, level int) (z []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Compress panicked: %v", r)
		}
	}()
	return c.Compress(nil, []byte("hello"), level)
}
