package report

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/reuse-go/reuse/bytebuf"
)

// W11's request sizes: most write about 1 KiB, one in w11Every about 1 MiB.
const (
	w11Small = 1 << 10
	w11Large = 1 << 20
	w11Every = 64
	// w11Bound is the largest buffer the correct sync.Pool variant keeps.
	w11Bound = 64 << 10
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

var _ = register(w11)

func w11() Def {
	return Def{
		ID:        "W11",
		Claim:     "A calibrated pool keeps memory bounded under mixed sizes, where a plain sync.Pool hands 1 MiB buffers to 1 KiB requests.",
		Pitfalls:  []string{"P7"},
		Retained:  4*w11Every + 8, // ending on small requests
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
					pool := countedPool(func() any { return new(bytes.Buffer) })
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
				{Name: "sync.Pool, drops > 64 KiB", Role: RoleSyncPoolCorrect, New: func() Op {
					// As fmt does (golang/go#23199): a buffer that grew past
					// the bound is dropped, not kept for small requests.
					pool := countedPool(func() any { return new(bytes.Buffer) })
					drops := countedDrops()
					i := 0
					return func(see func(any)) error {
						buf := pool.Get().(*bytes.Buffer)
						buf.Reset()
						w11Write(buf, i)
						i++
						if see != nil {
							see(buf.Bytes())
						}
						if buf.Cap() <= w11Bound {
							pool.Put(buf)
						} else {
							drops.Add(1)
						}
						return nil
					}
				}},
				{Name: "bytebuf.Pool, calibrated", Role: RoleReuse, New: func() Op {
					pool := new(bytebuf.Pool)
					track(func() uint64 { return pool.Stats().News }, func() uint64 { return pool.Stats().Drops })
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
