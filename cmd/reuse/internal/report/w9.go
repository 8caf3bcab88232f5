package report

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/reuse-go/reuse/gzpool"
)

var _ = register(w9)

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
		Claim:     "Reusing a gzip.Writer is several times cheaper than making one per stream.",
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
					pool := countedPool(func() any { return gzip.NewWriter(nil) })
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
