package khttp_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/httpcompress/khttp"
)

// FuzzZstdReader: what Zstd's OpenReader decodes, its windows lowered to
// the limit, is what klauspost's decoder decodes from the stream as sent:
// the same bytes up to the limit, and the whole stream when it fits.
func FuzzZstdReader(f *testing.F) {
	var stream bytes.Buffer
	for _, w := range []int{1 << 10, 64 << 10, 1 << 20, 8 << 20} {
		zw, _ := zstd.NewWriter(&stream, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(w), zstd.WithEncoderCRC(w > 64<<10))
		zw.Write(text(3000))
		zw.Write(bytes.Repeat([]byte("abc"), 20000))
		zw.Close()
		f.Add(stream.Bytes(), uint32(100<<10))
		f.Add(stream.Bytes(), uint32(2000))
	}
	f.Add(stream.Bytes(), uint32(0))
	f.Add(frame(0, []byte{window8MiB}, 2), uint32(1000))
	f.Add(frame(0x20|2<<6, le32(3<<17), 3), uint32(1<<20))
	f.Add(frame(0x20, []byte{200}, 1), uint32(1<<10))
	f.Add(frame(1|1<<6|4, []byte{window8MiB, 9, 1, 2}, 1), uint32(1<<10))
	f.Add(append([]byte("\x50\x2a\x4d\x18\x02\x00\x00\x00ab"), frame(0, []byte{window8MiB}, 1)...), uint32(300<<10))
	f.Fuzz(func(t *testing.T, data []byte, limit uint32) {
		limit %= 1 << 21
		// The stream as sent, to a decoder allowed 16 MiB of window.
		ref, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(16<<20), zstd.WithDecoderMaxMemory(16<<20))
		if err != nil {
			t.Fatal(err)
		}
		defer ref.Close()
		read := int64(limit) + 1
		if limit == 0 {
			read = 4 << 20
		}
		want, wantErr := io.ReadAll(io.LimitReader(ref, read))
		if errors.Is(wantErr, zstd.ErrWindowSizeExceeded) || errors.Is(wantErr, zstd.ErrDecoderSizeExceeded) {
			return // more than the reference may allocate
		}

		var r codec.Reader
		var got []byte
		gotErr := khttp.Zstd().OpenReader(&r, bytes.NewReader(data), int64(limit))
		if gotErr == nil {
			got, gotErr = io.ReadAll(io.LimitReader(&r, read))
			r.Close()
		}
		if !bytes.HasPrefix(want, got) {
			t.Fatalf("limit %d: decoded %d bytes that differ from the %d klauspost decoded", limit, len(got), len(want))
		}
		if wantErr == nil && int64(len(want)) < read && (gotErr != nil || len(got) != len(want)) {
			t.Fatalf("limit %d: decoded %d bytes, %v; klauspost decoded all %d", limit, len(got), gotErr, len(want))
		}
		if gotErr != nil && wantErr == nil && !errors.Is(gotErr, codec.ErrTooLarge) {
			t.Fatalf("limit %d: %v where klauspost decoded %d bytes", limit, gotErr, len(want))
		}
	})
}
