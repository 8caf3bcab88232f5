package kgzip_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/kgzip"
	"github.com/reuse-go/reuse/reusetest"
)

// text returns n bytes of compressible pseudo-text, the same for the same n.
func text(n int) []byte {
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

func stdGunzip(src []byte) ([]byte, error) {
	r, err := stdgzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// slow reports whether the tests should do less: under -short, the race
// detector and wasm.
func slow() bool {
	return testing.Short() || race.Enabled || runtime.GOARCH == "wasm"
}

func sizes() []int {
	if slow() {
		return []int{0, 1, 200, 64 << 10}
	}
	return []int{0, 1, 200, 64 << 10, 300 << 10}
}

func TestRoundTrip(t *testing.T) {
	for _, level := range []int{-2, -1, 0, 1, 5, 9} {
		for _, size := range sizes() {
			t.Run(fmt.Sprintf("level=%d/size=%d", level, size), func(t *testing.T) {
				src := text(size)
				z, err := kgzip.Compress([]byte("p"), src, level)
				if err != nil {
					t.Fatal(err)
				}
				if back, err := stdGunzip(z[1:]); err != nil || !bytes.Equal(back, src) {
					t.Fatalf("compress/gzip reads Compress output as %d bytes, %v; want %d", len(back), err, len(src))
				}
				back, err := kgzip.Decompress(nil, z[1:], int64(size))
				if err != nil || !bytes.Equal(back, src) {
					t.Fatalf("Decompress: %d bytes, %v; want %d", len(back), err, len(src))
				}
				std, err := gzpool.Compress(nil, src, level)
				if err != nil {
					t.Fatal(err)
				}
				if back, err := kgzip.Decompress(nil, std, int64(size)); err != nil || !bytes.Equal(back, src) {
					t.Fatalf("Decompress of compress/gzip output: %d bytes, %v; want %d", len(back), err, len(src))
				}
				if size > 0 {
					if _, err := kgzip.Decompress(nil, z[1:], int64(size-1)); !errors.Is(err, kgzip.ErrTooLarge) || !errors.Is(err, reuse.ErrTooLarge) {
						t.Fatalf("Decompress with limit %d: err = %v, want kgzip.ErrTooLarge and reuse.ErrTooLarge", size-1, err)
					}
				}

				var b bytes.Buffer
				w, err := kgzip.NewWriter(&b, level)
				if err != nil {
					t.Fatal(err)
				}
				w.Write(src)
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(src); !errors.Is(err, kgzip.ErrClosed) {
					t.Fatalf("Write after Close: err = %v, want ErrClosed", err)
				}
				r, err := kgzip.NewReader(struct{ io.Reader }{&b})
				if err != nil {
					t.Fatal(err)
				}
				back, err = io.ReadAll(r)
				r.Close()
				if err != nil || !bytes.Equal(back, src) {
					t.Fatalf("Reader: %d bytes, %v; want %d", len(back), err, len(src))
				}
			})
		}
	}
}

func TestInvalidLevel(t *testing.T) {
	for _, level := range []int{-3, 10} {
		if _, err := kgzip.Compress(nil, nil, level); !errors.Is(err, kgzip.ErrLevel) {
			t.Errorf("Compress(level %d): err = %v, want ErrLevel", level, err)
		}
		if _, err := kgzip.NewWriter(io.Discard, level); !errors.Is(err, kgzip.ErrLevel) {
			t.Errorf("NewWriter(level %d): err = %v, want ErrLevel", level, err)
		}
	}
}

func TestCorrupt(t *testing.T) {
	src := text(3000)
	z, err := kgzip.Compress(nil, src, 6)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(z); n++ {
		if _, err := kgzip.Decompress(nil, z[:n], 1<<20); !errors.Is(err, kgzip.ErrCorrupt) {
			t.Fatalf("Decompress of %d of %d bytes: err = %v, want ErrCorrupt", n, len(z), err)
		}
		if back, err := kgzip.Decompress(nil, z, 1<<20); err != nil || !bytes.Equal(back, src) {
			t.Fatalf("after a failure: Decompress = %d bytes, %v", len(back), err)
		}
	}
}

func TestBomb(t *testing.T) {
	var b bytes.Buffer
	// The fastest level: the test is about the decompression limit,
	// which the bomb's ratio does not change, and on zeros it makes a
	// smaller bomb than the best level (265 288 bytes for 256 MiB, against
	// 268 315) in a thirtieth of the time (0.26 s, against 7.8 s).
	n := 256
	if slow() {
		n = 16
	}
	w, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	zeros := make([]byte, 1<<20)
	for i := 0; i < n; i++ {
		w.Write(zeros)
	}
	w.Close()
	out, err := kgzip.Decompress(nil, b.Bytes(), 1<<20)
	if !errors.Is(err, kgzip.ErrTooLarge) || len(out) != 0 {
		t.Fatalf("Decompress of a %d MiB bomb with a 1 MiB limit: %d bytes, %v; want ErrTooLarge", n, len(out), err)
	}
}

func TestNoCompressionBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 100, 65535, 65536, 200000, 1 << 20} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		out, err := kgzip.Compress(nil, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if bound := n + 5*(n/65535+1) + 25; len(out) > bound {
			t.Errorf("Compress(%d bytes, NoCompression) = %d bytes, documented bound %d", n, len(out), bound)
		}
	}
}

func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var z, back []byte
			for i := 0; i < 50; i++ {
				src := text(100 + 97*((g+i)%20))
				var err error
				if z, err = kgzip.Compress(z[:0], src, (g+i)%10); err != nil {
					t.Error(err)
					return
				}
				if back, err = kgzip.Decompress(back[:0], z, int64(len(src))); err != nil || !bytes.Equal(back, src) {
					t.Errorf("round trip: %d bytes, %v; want %d", len(back), err, len(src))
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestAllocs(t *testing.T) {
	src := text(200)
	z, err := kgzip.Compress(nil, src, 6)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, 0, 4096)
	for _, level := range []int{-2, -1, 0, 1, 5, 9} {
		t.Run(fmt.Sprintf("Compress/level=%d", level), func(t *testing.T) {
			reusetest.AllocsAtMost(t, 0.01, func() {
				if _, err := kgzip.Compress(dst[:0], src, level); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
	// Decompress takes a new klauspost decoder per call: 7 allocations.
	t.Run("Decompress/room", func(t *testing.T) {
		reusetest.AllocsAtMost(t, 7.01, func() {
			if _, err := kgzip.Decompress(dst[:0], z, 1<<20); err != nil {
				t.Fatal(err)
			}
		})
	})
	t.Run("Decompress/dst=nil", func(t *testing.T) {
		reusetest.AllocsAtMost(t, 8.01, func() {
			if _, err := kgzip.Decompress(nil, z, 1<<20); err != nil {
				t.Fatal(err)
			}
		})
	})
}
