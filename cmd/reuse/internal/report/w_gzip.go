package report

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/gzpool"
)

// w9Text is W9's input: about 200 bytes of text.
var w9Text = []byte(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 4) + "Pack my box with five dozen liquor jugs.")

// w10Input is W9's output, W10's input.
var w10Input = func() []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(w9Text); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// gunzip decompresses a whole stream; the report uses it to check W9's
// output, outside the timed loop.
func gunzip(b []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(zr)
	return string(out), err
}

// readAppend reads r to the end, appending to dst, without io.ReadAll's
// fresh slice or io.Copy's 32 KiB buffer.
func readAppend(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

func w9() Def {
	seeGz := func(see func(any), b []byte) error {
		if see == nil {
			return nil
		}
		s, err := gunzip(b)
		if err != nil {
			return fmt.Errorf("output does not decompress: %w", err)
		}
		see(s)
		return nil
	}
	return Def{
		ID:        "W9",
		Name:      "gzip",
		Op:        fmt.Sprintf("compress a %d-byte text at the default level", len(w9Text)),
		Published: "gzip.NewWriter 199 275 ns 814 449 B 21 allocs → pooled writer 28 469 ns 196 B 1 alloc (7×)",
		Cases: []CaseDef{{
			Variants: []VariantDef{
				{Name: "gzip.NewWriter", Role: RoleBaseline, Published: pub(199275, 814449, 21, 0), New: func() Op {
					return func(see func(any)) error {
						var buf bytes.Buffer
						zw := gzip.NewWriter(&buf)
						if _, err := zw.Write(w9Text); err != nil {
							return err
						}
						if err := zw.Close(); err != nil {
							return err
						}
						sinkBytes = buf.Bytes()
						return seeGz(see, buf.Bytes())
					}
				}},
				{Name: "sync.Pool of *gzip.Writer", Role: RoleSyncPool, Published: pub(28469, 196, 1, 199275.0/28469), New: func() Op {
					pool := &sync.Pool{New: func() any { return gzip.NewWriter(nil) }}
					return func(see func(any)) error {
						var buf bytes.Buffer
						zw := pool.Get().(*gzip.Writer)
						zw.Reset(&buf)
						_, err := zw.Write(w9Text)
						if err == nil {
							err = zw.Close()
						}
						pool.Put(zw)
						if err != nil {
							return err
						}
						sinkBytes = buf.Bytes()
						return seeGz(see, buf.Bytes())
					}
				}},
				{Name: "gzpool.Compress, reused dst", Role: RoleReuse, Published: pub(28469, 196, 1, 199275.0/28469), New: func() Op {
					var dst []byte
					return func(see func(any)) error {
						var err error
						dst, err = gzpool.Compress(dst[:0], w9Text, gzip.DefaultCompression)
						if err != nil {
							return err
						}
						return seeGz(see, dst)
					}
				}},
			},
		}},
	}
}

// gunzipDrained is W10 as the write-up has it: the pooled reader is reset
// onto one shared input buffer, which the first op drains (pitfall P1).
func gunzipDrained(pool *sync.Pool, in *bytes.Buffer, out *bytes.Buffer) error {
	zr := pool.Get().(*gzip.Reader)
	defer pool.Put(zr)
	if err := zr.Reset(in); err != nil {
		return err
	}
	out.Reset()
	_, err := out.ReadFrom(zr)
	return err
}

func w10() Def {
	why := "the published 6× is pitfall P1: after the first iteration the input buffer is empty, so the pooled reader only returns io.EOF. With fresh input, pooling the gzip.Reader saves its allocation, far less"
	fake := func(ns, b, a, s float64) *Published {
		p := pub(ns, b, a, s)
		p.Fake = true
		return p
	}
	return Def{
		ID:        "W10",
		Name:      "gunzip",
		Op:        "decompress W9's output",
		Published: "582 ns 3 allocs → 96.8 ns 0 allocs: not real, see P1",
		Detect: func() []Finding {
			pool := &sync.Pool{New: func() any { return new(gzip.Reader) }}
			in := bytes.NewBuffer(w10Input)
			var out bytes.Buffer
			return found(DetectErrorPath("sync.Pool, one input buffer", func() error {
				return gunzipDrained(pool, in, &out)
			}, 100))
		},
		Cases: []CaseDef{{
			Why: why,
			Variants: []VariantDef{
				{Name: "gzip.NewReader", Role: RoleBaseline, Published: pub(582, -1, 3, 0), New: func() Op {
					return func(see func(any)) error {
						zr, err := gzip.NewReader(bytes.NewReader(w10Input))
						if err != nil {
							return err
						}
						out, err := io.ReadAll(zr)
						if err != nil {
							return err
						}
						sinkBytes = out
						if see != nil {
							see(out)
						}
						return nil
					}
				}},
				{Name: "sync.Pool, one input buffer", Role: RoleSyncPool, Published: fake(96.8, 0, 0, 582/96.8), New: func() Op {
					pool := &sync.Pool{New: func() any { return new(gzip.Reader) }}
					in := bytes.NewBuffer(w10Input)
					var out bytes.Buffer
					return func(see func(any)) error {
						if err := gunzipDrained(pool, in, &out); err != nil {
							return err
						}
						if see != nil {
							see(out.Bytes())
						}
						return nil
					}
				}},
				{Name: "sync.Pool, fresh input", Role: RoleOther, New: func() Op {
					type state struct {
						zr gzip.Reader
						r  bytes.Reader
					}
					pool := &sync.Pool{New: func() any { return new(state) }}
					var out []byte
					return func(see func(any)) error {
						s := pool.Get().(*state)
						defer pool.Put(s)
						s.r.Reset(w10Input)
						if err := s.zr.Reset(&s.r); err != nil {
							return err
						}
						var err error
						out, err = readAppend(out[:0], &s.zr)
						if err != nil {
							return err
						}
						if see != nil {
							see(out)
						}
						return nil
					}
				}},
				{Name: "gzpool.Decompress, reused dst", Role: RoleReuse, Published: fake(96.8, 0, 0, 582/96.8), New: func() Op {
					var out []byte
					return func(see func(any)) error {
						var err error
						out, err = gzpool.Decompress(out[:0], w10Input, 1<<20)
						if err != nil {
							return err
						}
						if see != nil {
							see(out)
						}
						return nil
					}
				}},
			},
		}},
	}
}

// W11's request sizes: most write about 1 KiB, one in w11Every about 1 MiB.
const (
	w11Small = 1 << 10
	w11Large = 1 << 20
	w11Every = 64
)

// w11Chunk is what a W11 request writes, repeated.
var w11Chunk = bytes.Repeat([]byte("0123456789abcdef"), w11Small/16)

// w11Write writes request i's payload to buf.
func w11Write(buf *bytes.Buffer, i int) { w11WriteTo(buf, i) }

// w11WriteTo writes request i's payload to w.
func w11WriteTo(w io.Writer, i int) {
	n := w11Small
	if i%w11Every == w11Every-1 {
		n = w11Large
	}
	for k := 0; k < n; k += len(w11Chunk) {
		w.Write(w11Chunk)
	}
}

// w11Size is the size of request i.
func w11Size(i int) int {
	if i%w11Every == w11Every-1 {
		return w11Large
	}
	return w11Small
}

func w11() Def {
	return Def{
		ID:        "W11",
		Name:      "byte buffers of mixed sizes",
		Op:        fmt.Sprintf("write a request into a buffer: %d of %d requests 1 KiB, one 1 MiB", w11Every-1, w11Every),
		Published: "no figure: the calibrated pool's point is that new buffers start at the common size and oversized ones are not kept (P7)",
		Detect: func() []Finding {
			// Sixteen 1 MiB requests: under the race detector sync.Pool
			// drops a quarter of Puts at random, so with the four this
			// used to make, every large buffer was dropped before a small
			// request could draw it in 1 run of 256 (seen once in CI).
			const rounds = 16 * w11Every
			pool := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
			var small, oversized int
			for i := 0; i < rounds; i++ {
				buf := pool.Get().(*bytes.Buffer)
				buf.Reset()
				if w11Size(i) == w11Small {
					small++
					if buf.Cap() >= w11Large {
						oversized++
					}
				}
				w11Write(buf, i)
				pool.Put(buf)
			}
			bb := new(bytebuf.Pool)
			var bbOversized int
			for i := 0; i < rounds; i++ {
				buf := bb.Get()
				if w11Size(i) == w11Small && buf.Cap() >= w11Large {
					bbOversized++
				}
				w11WriteTo(buf, i)
				bb.Put(buf)
			}
			if oversized == 0 {
				return nil
			}
			return []Finding{{
				Pitfall:  "P7",
				Variant:  "sync.Pool of *bytes.Buffer",
				Message:  "unbounded retention: 1 MiB buffers stay in the pool and serve 1 KiB requests",
				Evidence: fmt.Sprintf("%d of %d 1 KiB requests got a buffer of 1 MiB or more; from bytebuf.Pool, %d", oversized, small, bbOversized),
			}}
		},
		Cases: []CaseDef{{
			Why: "the write-ups publish no figure for this workload",
			Variants: []VariantDef{
				{Name: "new(bytes.Buffer)", Role: RoleBaseline, New: func() Op {
					i := 0
					return func(see func(any)) error {
						buf := new(bytes.Buffer)
						w11Write(buf, i)
						i++
						sinkBytes = buf.Bytes()
						if see != nil {
							see(buf.Bytes())
						}
						return nil
					}
				}},
				{Name: "sync.Pool of *bytes.Buffer", Role: RoleSyncPool, New: func() Op {
					pool := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
					i := 0
					return func(see func(any)) error {
						buf := pool.Get().(*bytes.Buffer)
						buf.Reset()
						w11Write(buf, i)
						i++
						if see != nil {
							see(buf.Bytes())
						}
						pool.Put(buf)
						return nil
					}
				}},
				{Name: "bytebuf.Pool, calibrated", Role: RoleReuse, New: func() Op {
					pool := new(bytebuf.Pool)
					i := 0
					return func(see func(any)) error {
						buf := pool.Get()
						w11WriteTo(buf, i)
						i++
						if see != nil {
							see(buf.Bytes())
						}
						pool.Put(buf)
						return nil
					}
				}},
			},
		}},
	}
}
