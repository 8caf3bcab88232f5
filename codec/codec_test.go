package codec_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/flatepool"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
	"github.com/reuse-go/reuse/zlibpool"
)

// format is one pooled package beside its standard-library reference.
type format struct {
	name       string
	compress   func(dst, src []byte, level int) ([]byte, error)
	decompress func(dst, src []byte, limit int64) ([]byte, error)
	newWriter  func(w io.Writer, level int) (writer, error)
	newReader  func(r io.Reader) (io.ReadCloser, error)
	stdWriter  func(w io.Writer, level int) (io.WriteCloser, error)
	stdReader  func(r io.Reader) (io.ReadCloser, error)
}

type writer interface {
	io.WriteCloser
	Flush() error
}

var formats = []format{
	{
		name:       "gzpool",
		compress:   gzpool.Compress,
		decompress: gzpool.Decompress,
		newWriter: func(w io.Writer, level int) (writer, error) {
			zw, err := gzpool.NewWriter(w, level)
			if err != nil {
				return nil, err
			}
			return zw, nil
		},
		newReader: func(r io.Reader) (io.ReadCloser, error) {
			zr, err := gzpool.NewReader(r)
			if err != nil {
				return nil, err
			}
			return zr, nil
		},
		stdWriter: func(w io.Writer, level int) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, level) },
		stdReader: func(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) },
	},
	{
		name:       "zlibpool",
		compress:   zlibpool.Compress,
		decompress: zlibpool.Decompress,
		newWriter: func(w io.Writer, level int) (writer, error) {
			zw, err := zlibpool.NewWriter(w, level)
			if err != nil {
				return nil, err
			}
			return zw, nil
		},
		newReader: func(r io.Reader) (io.ReadCloser, error) {
			zr, err := zlibpool.NewReader(r)
			if err != nil {
				return nil, err
			}
			return zr, nil
		},
		stdWriter: func(w io.Writer, level int) (io.WriteCloser, error) { return zlib.NewWriterLevel(w, level) },
		stdReader: zlib.NewReader,
	},
	{
		name:       "flatepool",
		compress:   flatepool.Compress,
		decompress: flatepool.Decompress,
		newWriter: func(w io.Writer, level int) (writer, error) {
			zw, err := flatepool.NewWriter(w, level)
			if err != nil {
				return nil, err
			}
			return zw, nil
		},
		newReader: func(r io.Reader) (io.ReadCloser, error) {
			zr, err := flatepool.NewReader(r)
			if err != nil {
				return nil, err
			}
			return zr, nil
		},
		stdWriter: func(w io.Writer, level int) (io.WriteCloser, error) { return flate.NewWriter(w, level) },
		stdReader: func(r io.Reader) (io.ReadCloser, error) { return flate.NewReader(r), nil },
	},
}

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

// noise returns n incompressible bytes.
func noise(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func (f format) stdCompress(t testing.TB, src []byte, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := f.stdWriter(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(src); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (f format) stdDecompress(src []byte) ([]byte, error) {
	r, err := f.stdReader(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

var levels = []int{-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}

// slow reports whether the tests should do less: under -short, the race
// detector (5 to 10 times slower) and wasm.
func slow() bool {
	return testing.Short() || race.Enabled || runtime.GOARCH == "wasm"
}

func TestRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 200, 64 << 10, 300 << 10}
	lv := levels
	if slow() {
		sizes = sizes[:4]
		lv = []int{-2, -1, 0, 1, 9}
	}
	for _, f := range formats {
		for _, level := range lv {
			for _, size := range sizes {
				for _, kind := range []string{"text", "noise"} {
					t.Run(fmt.Sprintf("%s/level=%d/size=%d/%s", f.name, level, size, kind), func(t *testing.T) {
						src := text(size)
						if kind == "noise" {
							src = noise(size)
						}
						want := f.stdCompress(t, src, level)

						prefix := []byte("prefix")
						got, err := f.compress(prefix, src, level)
						if err != nil {
							t.Fatalf("Compress: %v", err)
						}
						if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
							t.Fatalf("Compress(level %d) = %d bytes, differs from the standard library's %d bytes", level, len(got)-len(prefix), len(want))
						}

						plain, err := f.decompress([]byte("x"), want, int64(size))
						if err != nil {
							t.Fatalf("Decompress: %v", err)
						}
						if plain[0] != 'x' || !bytes.Equal(plain[1:], src) {
							t.Fatalf("Decompress returned %d bytes, want x and the %d source bytes", len(plain), len(src))
						}

						// Streaming, in uneven chunks.
						var buf bytes.Buffer
						w, err := f.newWriter(&buf, level)
						if err != nil {
							t.Fatalf("NewWriter: %v", err)
						}
						for rest, i := src, 1; len(rest) > 0; i *= 3 {
							n := min(i, len(rest))
							if _, err := w.Write(rest[:n]); err != nil {
								t.Fatalf("Write: %v", err)
							}
							rest = rest[n:]
						}
						if err := w.Close(); err != nil {
							t.Fatalf("Close: %v", err)
						}
						back, err := f.stdDecompress(buf.Bytes())
						if err != nil || !bytes.Equal(back, src) {
							t.Fatalf("standard decompression of the Writer's output: %d bytes, %v; want %d bytes", len(back), err, len(src))
						}
						// A plain io.Reader, which NewReader must buffer itself.
						r, err := f.newReader(struct{ io.Reader }{bytes.NewReader(want)})
						if err != nil {
							t.Fatalf("NewReader: %v", err)
						}
						back, err = io.ReadAll(r)
						if err != nil || !bytes.Equal(back, src) {
							t.Fatalf("Reader: %d bytes, %v; want %d bytes", len(back), err, len(src))
						}
						if err := r.Close(); err != nil {
							t.Fatalf("Reader.Close: %v", err)
						}
					})
				}
			}
		}
	}
}

func TestInvalidLevel(t *testing.T) {
	for _, f := range formats {
		for _, level := range []int{-100, -3, 10, 11, math.MaxInt, math.MinInt} {
			t.Run(fmt.Sprintf("%s/level=%d", f.name, level), func(t *testing.T) {
				out, err := f.compress([]byte("abc"), []byte("data"), level)
				if !errors.Is(err, codec.ErrLevel) || string(out) != "abc" {
					t.Errorf("Compress(level %d) = %q, %v; want abc and ErrLevel", level, out, err)
				}
				if err == nil || !strings.HasPrefix(err.Error(), f.name+": ") {
					t.Errorf("Compress(level %d) error %q does not start with %q", level, err, f.name)
				}
				w, err := f.newWriter(io.Discard, level)
				if !errors.Is(err, codec.ErrLevel) || w != nil {
					t.Errorf("NewWriter(level %d) = %v, %v; want nil, ErrLevel", level, w, err)
				}
			})
		}
	}
}

func TestDecompressLimit(t *testing.T) {
	src := text(10000)
	for _, f := range formats {
		stream := f.stdCompress(t, src, 6)
		tests := []struct {
			limit   int
			dst     []byte
			wantErr error
		}{
			{0, nil, codec.ErrTooLarge},
			{1, nil, codec.ErrTooLarge},
			{9999, nil, codec.ErrTooLarge},
			{9999, make([]byte, 3, 20000), codec.ErrTooLarge},
			{10000, nil, nil},
			{10000, make([]byte, 3, 10003), nil}, // exactly enough room
			{10000, make([]byte, 3, 100), nil},
			{10001, nil, nil},
			{math.MaxInt / 2, nil, nil},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/limit=%d/cap=%d", f.name, tt.limit, cap(tt.dst)), func(t *testing.T) {
				out, err := f.decompress(tt.dst, stream, int64(tt.limit))
				if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
					t.Fatalf("Decompress(limit %d): err = %v, want %v", tt.limit, err, tt.wantErr)
				}
				if err != nil {
					if len(out) != len(tt.dst) {
						t.Errorf("Decompress(limit %d) failed but returned %d bytes, want dst's %d", tt.limit, len(out), len(tt.dst))
					}
					return
				}
				if !bytes.Equal(out[len(tt.dst):], src) {
					t.Errorf("Decompress(limit %d) = %d bytes, want the %d source bytes", tt.limit, len(out)-len(tt.dst), len(src))
				}
				if cap(out) > 2*len(src)+8192 {
					t.Errorf("Decompress(limit %d): cap = %d for %d bytes of output", tt.limit, cap(out), len(out))
				}
			})
		}
	}
}

// TestDecompressCorrupt feeds every truncation and many bit flips of a
// valid stream, and checks after each failure that the pooled reader serves
// the next call correctly.
func TestDecompressCorrupt(t *testing.T) {
	src := text(3000)
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			stream := f.stdCompress(t, src, 6)
			check := func(what string, bad []byte) {
				t.Helper()
				out, err := f.decompress(nil, bad, 1<<20)
				std, stdErr := f.stdDecompress(bad)
				switch {
				case err == nil && (stdErr != nil || !bytes.Equal(out, std)):
					t.Fatalf("%s: Decompress succeeded with %d bytes; standard library: %d bytes, %v", what, len(out), len(std), stdErr)
				case err != nil && !errors.Is(err, codec.ErrCorrupt):
					t.Fatalf("%s: Decompress error %v does not wrap ErrCorrupt", what, err)
				case err != nil && stdErr == nil:
					t.Fatalf("%s: Decompress failed with %v, the standard library succeeded", what, err)
				case err != nil && !errors.Is(err, stdErr) && !strings.Contains(err.Error(), stdErr.Error()):
					t.Fatalf("%s: Decompress error %v does not carry the cause %v", what, err, stdErr)
				}
				if err != nil && len(out) != 0 {
					t.Fatalf("%s: Decompress failed but returned %d bytes", what, len(out))
				}
				good, err := f.decompress(nil, stream, 1<<20)
				if err != nil || !bytes.Equal(good, src) {
					t.Fatalf("after %s: Decompress of a valid stream = %d bytes, %v", what, len(good), err)
				}
			}
			for n := 0; n < len(stream); n++ {
				check(fmt.Sprintf("truncated to %d bytes", n), stream[:n])
			}
			r := rand.New(rand.NewPCG(1, 2))
			flips := 2000
			if slow() {
				flips = 200
			}
			for i := 0; i < flips; i++ {
				bad := bytes.Clone(stream)
				bad[r.IntN(len(bad))] ^= 1 << r.IntN(8)
				check(fmt.Sprintf("flip %d", i), bad)
			}
		})
	}
}

func TestUseAfterClose(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			var b1, b2 bytes.Buffer
			w1, err := f.newWriter(&b1, 5)
			if err != nil {
				t.Fatal(err)
			}
			if err := w1.Close(); err != nil {
				t.Fatal(err)
			}
			// w2 most likely holds the compressor w1 held.
			w2, err := f.newWriter(&b2, 5)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w1.Write([]byte("stale")); !errors.Is(err, codec.ErrClosed) {
				t.Errorf("Write after Close: err = %v, want ErrClosed", err)
			}
			if err := w1.Flush(); !errors.Is(err, codec.ErrClosed) {
				t.Errorf("Flush after Close: err = %v, want ErrClosed", err)
			}
			if err := w1.Close(); !errors.Is(err, codec.ErrClosed) {
				t.Errorf("second Close: err = %v, want ErrClosed", err)
			}
			if _, err := w2.Write([]byte("fresh")); err != nil {
				t.Fatal(err)
			}
			if err := w2.Close(); err != nil {
				t.Fatal(err)
			}
			if got, err := f.stdDecompress(b2.Bytes()); err != nil || string(got) != "fresh" {
				t.Errorf("second writer's stream decompresses to %q, %v; want %q", got, err, "fresh")
			}

			r1, err := f.newReader(bytes.NewReader(b2.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := r1.Close(); err != nil {
				t.Fatal(err)
			}
			r2, err := f.newReader(bytes.NewReader(b2.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if n, err := r1.Read(make([]byte, 10)); n != 0 || !errors.Is(err, codec.ErrClosed) {
				t.Errorf("Read after Close = %d, %v; want 0, ErrClosed", n, err)
			}
			if err := r1.Close(); !errors.Is(err, codec.ErrClosed) {
				t.Errorf("second Reader.Close: err = %v, want ErrClosed", err)
			}
			if got, err := io.ReadAll(r2); err != nil || string(got) != "fresh" {
				t.Errorf("second reader read %q, %v; want %q", got, err, "fresh")
			}
			r2.Close()
		})
	}
}

// TestCloseDropsReference checks that a pooled codec given back by Close
// does not keep the caller's writer or reader alive.
func TestCloseDropsReference(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops pooled values at random, so the test would pass without checking")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			stream := f.stdCompress(t, text(5000), 6)
			var writerGone, readerGone, plainGone atomic.Bool
			func() {
				dst := &bytes.Buffer{}
				runtime.SetFinalizer(dst, func(*bytes.Buffer) { writerGone.Store(true) })
				w, err := f.newWriter(dst, 6)
				if err != nil {
					t.Fatal(err)
				}
				w.Write(text(5000))
				w.Close()

				plain := &plainReader{bytes.NewReader(stream)} // buffered by the pool
				runtime.SetFinalizer(plain, func(*plainReader) { plainGone.Store(true) })
				r, err := f.newReader(plain)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, r)
				r.Close()

				src := bytes.NewReader(stream) // an io.ByteReader, read directly
				runtime.SetFinalizer(src, func(*bytes.Reader) { readerGone.Store(true) })
				r, err = f.newReader(src)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, r)
				r.Close()
			}()
			// One collection moves the pooled objects to the pool's victim
			// cache, where they stay alive; what they reference must not.
			// A second collection would free them and hide a leak.
			runtime.GC()
			for i := 0; i < 50 && !(writerGone.Load() && readerGone.Load() && plainGone.Load()); i++ {
				time.Sleep(5 * time.Millisecond)
			}
			if !writerGone.Load() || !readerGone.Load() || !plainGone.Load() {
				t.Errorf("after Close and GC: writer collected %v, byte reader collected %v, plain reader collected %v; want all true",
					writerGone.Load(), readerGone.Load(), plainGone.Load())
			}
		})
	}
}

type plainReader struct{ r io.Reader }

func (p *plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// failingWriter accepts n bytes, then fails.
type failingWriter struct{ n int }

var errWrite = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, errWrite
	}
	w.n -= len(p)
	return len(p), nil
}

// TestFailedWriterReused breaks a writer mid-stream, gives it back, and
// checks that the next user of the same pooled compressor gets a correct
// stream, byte for byte what the standard library writes.
func TestFailedWriterReused(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops pooled values at random, so the next writer may be a new one")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	src := noise(200 << 10)
	for _, f := range formats {
		for _, level := range []int{0, 1, 6, 9} {
			t.Run(fmt.Sprintf("%s/level=%d", f.name, level), func(t *testing.T) {
				w, err := f.newWriter(&failingWriter{n: 1000}, level)
				if err != nil {
					t.Fatal(err)
				}
				_, err = w.Write(src)
				if err == nil {
					err = w.Flush()
				}
				if !errors.Is(err, errWrite) {
					t.Fatalf("Write to a failing writer: err = %v, want %v", err, errWrite)
				}
				if err := w.Close(); !errors.Is(err, errWrite) {
					t.Fatalf("Close after a failed write: err = %v, want %v", err, errWrite)
				}

				next := text(50 << 10)
				var b bytes.Buffer
				w, err = f.newWriter(&b, level)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(next); err != nil {
					t.Fatalf("next writer: Write: %v", err)
				}
				if err := w.Close(); err != nil {
					t.Fatalf("next writer: Close: %v", err)
				}
				if want := f.stdCompress(t, next, level); !bytes.Equal(b.Bytes(), want) {
					t.Fatalf("next writer wrote %d bytes, differing from the standard library's %d", b.Len(), len(want))
				}
				out, err := f.compress(nil, next, level)
				if err != nil || !bytes.Equal(out, b.Bytes()) {
					t.Fatalf("Compress after the failure: %d bytes, %v; want the same %d bytes", len(out), err, b.Len())
				}
			})
		}
	}
}

// TestConcurrent hammers every format from several goroutines; run it with
// -race -cpu=1,4.
func TestConcurrent(t *testing.T) {
	inputs := [][]byte{text(10), text(200), text(5000), noise(3000)}
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for g := 0; g < 8; g++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var dst, plain []byte
					for i := 0; i < 50; i++ {
						src := inputs[(g+i)%len(inputs)]
						level := levels[(g*7+i)%len(levels)]
						var err error
						dst, err = f.compress(dst[:0], src, level)
						if err != nil {
							t.Error(err)
							return
						}
						plain, err = f.decompress(plain[:0], dst, int64(len(src)))
						if err != nil || !bytes.Equal(plain, src) {
							t.Errorf("round trip at level %d: %d bytes, %v; want %d bytes", level, len(plain), err, len(src))
							return
						}
						if _, err := f.decompress(plain[:0], dst, int64(len(src)-1)); len(src) > 0 && !errors.Is(err, codec.ErrTooLarge) {
							t.Errorf("Decompress with limit %d: err = %v, want ErrTooLarge", len(src)-1, err)
							return
						}
						var b bytes.Buffer
						w, err := f.newWriter(&b, level)
						if err != nil {
							t.Error(err)
							return
						}
						w.Write(src)
						w.Close()
						r, err := f.newReader(&b)
						if err != nil {
							t.Error(err)
							return
						}
						back, err := io.ReadAll(r)
						r.Close()
						if err != nil || !bytes.Equal(back, src) {
							t.Errorf("streaming round trip: %d bytes, %v; want %d bytes", len(back), err, len(src))
							return
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// slack tolerates a stray runtime allocation (a timer, the test framework)
// during the 1000 measured runs; a contract broken by the code under test
// costs at least one allocation on every run.
const slack = 0.01

func TestAllocs(t *testing.T) {
	src := text(200)
	big := text(64 << 10)
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			stream := f.stdCompress(t, src, 6)
			bigStream := f.stdCompress(t, big, 6)
			dst := make([]byte, 0, 1<<20)
			for _, level := range levels {
				t.Run(fmt.Sprintf("Compress/level=%d", level), func(t *testing.T) {
					reusetest.AllocsAtMost(t, slack, func() {
						if _, err := f.compress(dst[:0], src, level); err != nil {
							t.Fatal(err)
						}
					})
				})
			}
			// compress/zlib's reader allocates its Adler-32 digest on every
			// Reset: one allocation that pooling cannot remove.
			fixed := 0.0
			if f.name == "zlibpool" {
				fixed = 1
			}
			t.Run("Decompress/size=200B/room", func(t *testing.T) {
				reusetest.AllocsAtMost(t, fixed+slack, func() {
					if _, err := f.decompress(dst[:0], stream, 1<<20); err != nil {
						t.Fatal(err)
					}
				})
			})
			t.Run("Decompress/size=200B/room=exact", func(t *testing.T) {
				reusetest.AllocsAtMost(t, fixed+slack, func() {
					if _, err := f.decompress(dst[:0:len(src)], stream, 1<<20); err != nil {
						t.Fatal(err)
					}
				})
			})
			t.Run("Decompress/size=200B/dst=nil", func(t *testing.T) {
				reusetest.AllocsAtMost(t, fixed+1+slack, func() {
					if _, err := f.decompress(nil, stream, 1<<20); err != nil {
						t.Fatal(err)
					}
				})
			})
			// compress/flate's decoder drops its Huffman link tables on Reset
			// and rebuilds them for each dynamic block with long codes: about
			// 7 small allocations (400 B) per 64 KiB stream.
			t.Run("Decompress/size=64KiB/room", func(t *testing.T) {
				reusetest.AllocsAtMost(t, fixed+10+slack, func() {
					if _, err := f.decompress(dst[:0], bigStream, 1<<20); err != nil {
						t.Fatal(err)
					}
				})
			})
			t.Run("Decompress/ErrTooLarge", func(t *testing.T) {
				reusetest.AllocsAtMost(t, fixed+3+slack, func() { // the wrapped error
					if _, err := f.decompress(dst[:0], stream, 100); err == nil {
						t.Fatal("no error")
					}
				})
			})
		})
	}
}

// TestNoCompressionBound checks the room Compress's documentation promises
// is enough at NoCompression.
func TestNoCompressionBound(t *testing.T) {
	over := map[string]int{"gzpool": 25, "zlibpool": 11, "flatepool": 5}
	for _, f := range formats {
		for _, n := range []int{0, 1, 100, 65535, 65536, 200000, 1 << 20} {
			src := noise(n)
			out, err := f.compress(nil, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if bound := n + 5*(n/65535+1) + over[f.name]; len(out) > bound {
				t.Errorf("%s: Compress(%d bytes, NoCompression) = %d bytes, documented bound %d", f.name, n, len(out), bound)
			}
		}
	}
}

// FuzzDecompress feeds arbitrary bytes to every format's Decompress and
// checks them against the standard library read with the same bound.
func FuzzDecompress(f *testing.F) {
	for i, fm := range formats {
		for _, s := range []string{"", "hello, hello, hello", strings.Repeat("xyz", 500)} {
			z := fm.stdCompress(f, []byte(s), 6)
			f.Add(uint8(i), z, uint16(len(s)))
			f.Add(uint8(i), z[:len(z)/2], uint16(len(s)))
			f.Add(uint8(i), z, uint16(len(s)/2))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte, limit16 uint16) {
		fm := formats[int(which)%len(formats)]
		limit := int(limit16)
		out, err := fm.decompress(nil, src, int64(limit))
		if len(out) > limit {
			t.Fatalf("%s: Decompress returned %d bytes, above the limit %d", fm.name, len(out), limit)
		}
		if err == nil && cap(out) > limit+limit/8+8192 {
			t.Fatalf("%s: Decompress allocated cap %d for a limit of %d", fm.name, cap(out), limit)
		}
		var std []byte
		r, stdErr := fm.stdReader(bytes.NewReader(src))
		if stdErr == nil {
			std, stdErr = io.ReadAll(io.LimitReader(r, int64(limit)+1))
		}
		switch {
		case err == nil:
			if stdErr != nil || !bytes.Equal(out, std) {
				t.Fatalf("%s: Decompress = %d bytes; standard library: %d bytes, %v", fm.name, len(out), len(std), stdErr)
			}
		case errors.Is(err, codec.ErrTooLarge):
			if len(std) <= limit {
				t.Fatalf("%s: Decompress: %v, but the standard library gives %d bytes, %v", fm.name, err, len(std), stdErr)
			}
		case errors.Is(err, codec.ErrCorrupt):
			if stdErr == nil {
				t.Fatalf("%s: Decompress: %v, but the standard library reads %d bytes without error", fm.name, err, len(std))
			}
		default:
			t.Fatalf("%s: Decompress: unexpected error %v", fm.name, err)
		}
	})
}
