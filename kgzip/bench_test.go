package kgzip_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/kgzip"
	"github.com/reuse-go/reuse/reusetest"
)

var benchSizes = []struct {
	name string
	n    int
}{{"200B", 200}, {"64KiB", 64 << 10}}

var sink []byte

// The benchmarks report cpu-ns/op beside sec/op: on a shared machine the CPU
// time is the steadier figure.

// BenchmarkCompress puts the two pooled packages beside a new writer per call
// from each library, all at the default level, writing into a reused buffer.
func BenchmarkCompress(b *testing.B) {
	for _, size := range benchSizes {
		src := text(size.n)
		b.Run("size="+size.name+"/impl=std-per-call", func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			defer reportCPU(b)()
			for b.Loop() {
				buf.Reset()
				w := stdgzip.NewWriter(&buf)
				if _, err := w.Write(src); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			sink = buf.Bytes()
		})
		b.Run("size="+size.name+"/impl=klauspost-per-call", func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			defer reportCPU(b)()
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
		for _, impl := range []struct {
			name     string
			compress func(dst, src []byte, level int) ([]byte, error)
		}{{"gzpool", gzpool.Compress}, {"kgzip", kgzip.Compress}} {
			b.Run("size="+size.name+"/impl="+impl.name, func(b *testing.B) {
				dst, err := impl.compress(make([]byte, 0, len(src)+1024), src, -1) // warm the pool
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(src)))
				defer reusetest.ReportAllocs(b)()
				defer reportCPU(b)()
				for b.Loop() {
					if dst, err = impl.compress(dst[:0], src, -1); err != nil {
						b.Fatal(err)
					}
				}
				sink = dst
			})
		}
	}
}

// BenchmarkDecompress reads the whole stream afresh in every iteration
// (pitfall P1) and checks the error and the length.
func BenchmarkDecompress(b *testing.B) {
	for _, size := range benchSizes {
		src := text(size.n)
		stream, err := gzpool.Compress(nil, src, -1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("size="+size.name+"/impl=std-per-call", func(b *testing.B) {
			var in bytes.Reader
			var out bytes.Buffer
			out.Grow(len(src) + bytes.MinRead)
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			defer reportCPU(b)()
			for b.Loop() {
				in.Reset(stream)
				zr, err := stdgzip.NewReader(&in)
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
		b.Run("size="+size.name+"/impl=klauspost-per-call", func(b *testing.B) {
			var in bytes.Reader
			var out bytes.Buffer
			out.Grow(len(src) + bytes.MinRead)
			b.SetBytes(int64(len(src)))
			defer reusetest.ReportAllocs(b)()
			defer reportCPU(b)()
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
		for _, impl := range []struct {
			name       string
			decompress func(dst, src []byte, limit int64) ([]byte, error)
		}{{"gzpool", gzpool.Decompress}, {"kgzip", kgzip.Decompress}} {
			b.Run("size="+size.name+"/impl="+impl.name, func(b *testing.B) {
				out, err := impl.decompress(make([]byte, 0, len(src)), stream, int64(len(src))) // warm the pool
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(src)))
				defer reusetest.ReportAllocs(b)()
				defer reportCPU(b)()
				for b.Loop() {
					if out, err = impl.decompress(out[:0], stream, int64(len(src))); err != nil {
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
}
