package report

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"

	"github.com/reuse-go/reuse/gzpool"
)

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

var _ = register(w10)

func w10() Def {
	fake := func(ns, b, a, s float64) *Published {
		p := pub(ns, b, a, s)
		p.Fake = true
		return p
	}
	return Def{
		ID:        "W10",
		Claim:     "Reusing a gzip.Reader makes decompressing about 6× cheaper (the published benchmark measures an error path).",
		Pitfalls:  []string{"P1"},
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
				{Name: "sync.Pool, one input buffer", Role: RoleSyncPool, Published: fake(96.8, 0, 0, 582/96.8),
					Fails: "the write-up's code: the first op drains the shared input, so every later op returns io.EOF (P1)", New: func() Op {
						pool := countedPool(func() any { return new(gzip.Reader) })
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
				{Name: "sync.Pool, fresh input", Role: RoleSyncPoolCorrect, New: func() Op {
					type state struct {
						zr gzip.Reader
						r  bytes.Reader
					}
					pool := countedPool(func() any { return new(state) })
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
