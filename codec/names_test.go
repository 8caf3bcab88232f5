package codec_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/codec"
)

// TestMessagesNameTheCall: a panic names the method its caller called, and
// a bad level's error names none, since gzpool's NewWriter and
// httpcompress's Encodings both call OpenWriter.
func TestMessagesNameTheCall(t *testing.T) {
	c := codec.Must(codec.New(codec.Format{
		Name: "names", MinLevel: 1, MaxLevel: 9,
		NewCompressor:   func(w io.Writer, level int) (codec.Compressor, error) { return gzip.NewWriterLevel(w, level) },
		NewDecompressor: func() codec.Decompressor { return new(gzip.Reader) },
		SingleUse:       true,
	}))
	var w codec.Writer
	var r codec.Reader
	for _, tc := range []struct {
		call string
		f    func()
	}{
		{"OpenWriter", func() { c.OpenWriter(&w, nil, 1) }},
		{"OpenWriterWith", func() { c.OpenWriterWith(&w, nil, 1, nil) }},
		{"OpenReader", func() { c.OpenReader(&r, nil) }},
	} {
		got := func() (p any) {
			defer func() { p = recover() }()
			tc.f()
			return nil
		}()
		if msg := fmt.Sprint(got); !strings.HasPrefix(msg, "names: "+tc.call+": nil io.") {
			t.Errorf("%s with nil: panic %q, want it to name %s", tc.call, msg, tc.call)
		}
	}
	err := c.OpenWriter(&w, io.Discard, 12)
	if err == nil || strings.Contains(err.Error(), "NewWriter") || !strings.HasPrefix(err.Error(), "names: level 12: ") {
		t.Errorf("OpenWriter at level 12: %v, want \"names: level 12: ...\"", err)
	}
}
