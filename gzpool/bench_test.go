package gzpool_test

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/reusetest"
)

// benchText returns n bytes of compressible pseudo-text.
func benchText(n int) []byte {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while pooled gzip writers " +
		"compress request bodies and responses for an http server under load 0123456789")
	r := rand.New(rand.NewPCG(uint64(n), 42))
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(" \n"[r.IntN(8)/7])
	}
	return b.Bytes()[:n]
}

var benchSizes = []struct {
	name string
	n    int
}{{"200B", 200}, {"64KiB", 64 << 10}}

var sink []byte

// BenchmarkCompress compares Compress with the usual gzip.NewWriter per
// call, both at the default level writing into a reused buffer.
func BenchmarkCompress(b *testing.B) {
	for _, size := range benchSizes {
		src := benchText(size.n)
		b.Run("size="+size.name+"/impl=gzip.NewWriter", func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				buf.Reset()
				w := gzip.NewWriter(&buf)
				if _, err := w.Write(src); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			sink = buf.Bytes()
		})
		b.Run("size="+size.name+"/impl=gzpool", func(b *testing.B) {
			dst, err := gzpool.Compress(make([]byte, 0, len(src)+1024), src, gzip.DefaultCompression) // warm the pool
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				if dst, err = gzpool.Compress(dst[:0], src, gzip.DefaultCompression); err != nil {
					b.Fatal(err)
				}
			}
			sink = dst
		})
	}
}

// BenchmarkDecompress compares Decompress with gzip.NewReader per call. Each
// iteration reads the whole stream afresh (pitfall P1) and checks the error
// and the length, so neither side can measure an error path.
func BenchmarkDecompress(b *testing.B) {
	for _, size := range benchSizes {
		src := benchText(size.n)
		stream, err := gzpool.Compress(nil, src, gzip.DefaultCompression)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("size="+size.name+"/impl=gzip.NewReader", func(b *testing.B) {
			var in bytes.Reader
			var out bytes.Buffer
			out.Grow(len(src) + bytes.MinRead)
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				in.Reset(stream)
				zr, err := gzip.NewReader(&in)
				if err != nil {
					b.Fatal(err)
				}
				out.Reset()
				if _, err := out.ReadFrom(zr); err != nil {
					b.Fatal(err)
				}
				if out.Len() != len(src) {
					b.Fatalf("read %d bytes, want %d", out.Len(), len(src))
				}
			}
			sink = out.Bytes()
		})
		b.Run("size="+size.name+"/impl=gzpool", func(b *testing.B) {
			out, err := gzpool.Decompress(make([]byte, 0, len(src)), stream, int64(len(src))) // warm the pool
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				if out, err = gzpool.Decompress(out[:0], stream, int64(len(src))); err != nil {
					b.Fatal(err)
				}
				if len(out) != len(src) {
					b.Fatalf("read %d bytes, want %d", len(out), len(src))
				}
			}
			sink = out
		})
	}
}
