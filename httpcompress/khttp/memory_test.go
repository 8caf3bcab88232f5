package khttp_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/bodytest"
	"github.com/reuse-go/reuse/internal/race"
)

// Crafted zstd frames (RFC 8878 section 3.1.1), built by hand to ask for
// what an encoder never would.
const (
	zstdMagic  = "\x28\xb5\x2f\xfd"
	window8MiB = 13 << 3 // Window_Descriptor: 2^(10+13)
)

// rleBlocks returns n RLE blocks of 128 KiB of 'a', the last one marked so
// when last is set.
func rleBlocks(n int, last bool) []byte {
	var b []byte
	for i := range n {
		h := uint32(128<<10)<<3 | 1<<1 // RLE_Block, Block_Size 128 KiB
		if last && i == n-1 {
			h |= 1
		}
		b = append(b, byte(h), byte(h>>8), byte(h>>16), 'a')
	}
	return b
}

// frame is a frame with descriptor fhd, then the header fields after it,
// then n RLE blocks.
func frame(fhd byte, fields []byte, n int) []byte {
	b := append([]byte(zstdMagic), fhd)
	return append(append(b, fields...), rleBlocks(n, true)...)
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// zstdCases are crafted zstd request bodies for the memory test.
func zstdCases(t *testing.T) []bodytest.Case {
	zeros := make([]byte, 64<<10)
	var stream bytes.Buffer
	zw, _ := zstd.NewWriter(&stream, zstd.WithEncoderConcurrency(1)) // an 8 MiB window, as Go clients send
	zw.Write(text(500))
	zw.Close()
	tooLarge, corrupt := bodytest.TooLarge, bodytest.Corrupt
	return []bodytest.Case{
		{Name: "window 8 MiB, 14 bytes", Coding: "zstd", Body: frame(0, []byte{window8MiB}, 1), Size: 128 << 10},
		{Name: "window 8 MiB, 32 MiB of 'a'", Coding: "zstd", Body: frame(0, []byte{window8MiB}, 256), Size: tooLarge},
		{Name: "single segment, content size 8 MiB", Coding: "zstd", Body: frame(0x20|2<<6, le32(8<<20), 64), Size: tooLarge},
		{Name: "content size 8 MiB", Coding: "zstd", Body: frame(2<<6, append([]byte{window8MiB}, le32(8<<20)...), 64), Size: tooLarge},
		{Name: "dictionary 7", Coding: "zstd", Body: frame(1, []byte{window8MiB, 7}, 1), Size: corrupt},
		{Name: "1000 frames of 128 KiB, window 8 MiB", Coding: "zstd", Body: bytes.Repeat(frame(0, []byte{window8MiB}, 1), 1000), Size: tooLarge},
		{Name: "zstd.NewWriter, 500 bytes", Coding: "zstd", Body: stream.Bytes(), Size: 500},
		{Name: "skippable frame, then 500 bytes", Coding: "zstd",
			Body: append(append([]byte("\x50\x2a\x4d\x18"), append(le32(10), make([]byte, 10)...)...), stream.Bytes()...), Size: 500},
		{Name: "skippable frame of 1 GiB, truncated", Coding: "zstd", Body: append([]byte("\x50\x2a\x4d\x18"), le32(1<<30)...), Size: corrupt},
		{Name: "zstd.NewWriter, 1 GiB of zeros", Coding: "zstd", Body: bytes.Repeat(zstdBytes(t, zeros, 8<<20), 1<<14), Size: tooLarge},
	}
}

// overhead is what doc.go's # Memory states one request body may cost
// beyond the limit.
const overhead, overheadText = 5 << 19, "2.5 MiB"

// TestRequestMemory: what one request allocates to decompress its body is
// at most the limit and the overhead khttp's doc states, for every coding,
// crafted frame, limit and kind of source; the body decodes when it fits
// and is refused as too large when it does not. 1.7 MiB is about where
// the overhead is largest: the decoder's window is just under 2 MiB, and
// klauspost's decoder keeps twice a window that small.
func TestRequestMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	cases := zstdCases(t)
	cases = append(cases,
		bodytest.Case{Name: "gzip, 64 KiB of text", Coding: "gzip", Body: gzipBytes(t, text(64<<10)), Size: 64 << 10},
		bodytest.Case{Name: "gzip, 1 GiB of zeros", Coding: "gzip",
			Body: bytes.Repeat(gzipBytes(t, make([]byte, 64<<10)), 1<<14), Size: bodytest.TooLarge})
	bodytest.Run(t, "doc.go", overheadText, overhead, httpcompress.ErrRequestTooLarge,
		[]int64{1 << 10, 64 << 10, 1 << 20, 1700 << 10},
		func(limit int64) (func(http.Handler) http.Handler, error) {
			return khttp.New(httpcompress.Config{RequestLimit: limit})
		}, cases)
}

// TestZstdOpenReaderMemory: Zstd's OpenReader, called directly over a
// *bytes.Buffer, which klauspost's decoder would decode whole before
// returning, allocates the limit's window, not the stream's 32 MiB.
func TestZstdOpenReaderMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	const limit = 64 << 10
	bomb := frame(0, []byte{window8MiB}, 256)
	var n int64
	var err error
	open := func() {
		var r codec.Reader
		if err = khttp.Zstd().OpenReader(&r, bytes.NewBuffer(bomb), limit); err != nil {
			return
		}
		n, err = io.Copy(io.Discard, io.LimitReader(&r, limit))
		r.Close()
	}
	open()
	if got := bodytest.Allocated(open); err != nil || n != limit || got > limit+overhead {
		t.Errorf("read %d bytes (%v), %d bytes allocated; want %d and at most %d", n, err, got, limit, limit+overhead)
	}
}
