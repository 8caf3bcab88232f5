package codec_test

import (
	"compress/gzip"
	"errors"
	"io"
	"testing"

	"github.com/reuse-go/reuse/codec"
)

// TestNewChecksFormat makes New reject each kind of invalid Format with an
// error wrapping ErrFormat, and accept the valid one they are made from.
func TestNewChecksFormat(t *testing.T) {
	park := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	valid := func() codec.Format {
		return codec.Format{
			Name:     "test",
			MinLevel: gzip.HuffmanOnly, MaxLevel: gzip.BestCompression, DefaultLevel: 6,
			NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
				return gzip.NewWriterLevel(w, level)
			},
			NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
			Park:            park,
		}
	}
	if _, err := codec.New(valid()); err != nil {
		t.Fatalf("New(valid Format): %v", err)
	}
	for name, change := range map[string]func(*codec.Format){
		"no Name":              func(f *codec.Format) { f.Name = "" },
		"MinLevel > MaxLevel":  func(f *codec.Format) { f.MinLevel, f.MaxLevel = 3, 2 },
		"257 levels":           func(f *codec.Format) { f.MinLevel, f.MaxLevel = 0, 256 },
		"DefaultLevel outside": func(f *codec.Format) { f.DefaultLevel = 10 },
		"no NewCompressor":     func(f *codec.Format) { f.NewCompressor = nil },
		"no NewDecompressor":   func(f *codec.Format) { f.NewDecompressor = nil },
		"no Park":              func(f *codec.Format) { f.Park = nil },
		"Park with content":    func(f *codec.Format) { f.Park = mustGzip(t, "x") },
		"Park corrupt":         func(f *codec.Format) { f.Park = park[:12] },
	} {
		f := valid()
		change(&f)
		if c, err := codec.New(f); !errors.Is(err, codec.ErrFormat) || c != nil {
			t.Errorf("New(Format with %s) = %v, %v; want an error wrapping ErrFormat", name, c, err)
		}
	}
	f := valid()
	f.Park, f.SingleUse = nil, true
	if _, err := codec.New(f); err != nil {
		t.Errorf("New(SingleUse Format without Park): %v", err)
	}
}

func mustGzip(t *testing.T, s string) []byte {
	z, err := codec.Must(codec.New(codec.Format{
		Name: "x", NewCompressor: func(w io.Writer, _ int) (codec.Compressor, error) { return gzip.NewWriter(w), nil },
		NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) }, SingleUse: true,
	})).Compress(nil, []byte(s), 0)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func TestMustPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("Must(nil, err) did not panic")
		}
	}()
	codec.Must(codec.New(codec.Format{}))
}
