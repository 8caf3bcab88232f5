package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime/metrics"
	"testing"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/internal/race"
)

// heapAllocated returns the bytes allocated on the heap since the process
// started, as runtime/metrics counts them.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestDecompressMemory bounds what one Decompress allocates by 1.25 times
// the limit plus one buffer (64 KiB): on a bomb, on output just under the
// limit, and on output between the guesses and the limit. What Decompress
// allocates bounds what it adds to the heap, however late the collector
// runs. Growing by doubling up to the limit allocated 1.8 times the limit,
// and 2.4 times for gzip with a trailer that lies about the size.
//
// One exception is measured: a valid gzip stream of several members, whose
// last trailer gives a size hint that is right for that member only, costs
// the hint beside the output, up to twice the limit.
func TestDecompressMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector changes what the heap counts")
	}
	const limit = 4 << 20
	const bound = limit + limit/4 + 64<<10
	for _, f := range formats {
		cases := []struct {
			name    string
			src     []byte
			size    int
			wantErr error
		}{
			{"bomb", f.stdCompress(t, make([]byte, 3*limit), 9), 3 * limit, codec.ErrTooLarge},
			{"size=limit-1", f.stdCompress(t, make([]byte, limit-1), 9), limit - 1, nil},
			{"size=limit", f.stdCompress(t, make([]byte, limit), 9), limit, nil},
			{"size=limit/3", f.stdCompress(t, make([]byte, limit/3), 9), limit / 3, nil},
			{"size=limit/8+1", f.stdCompress(t, make([]byte, limit/8+1), 9), limit/8 + 1, nil},
		}
		if f.name == "gzpool" {
			// A trailer that lies about the size, so that the first
			// allocation is small, or as large as the limit allows.
			for _, claim := range []uint32{1000, limit} {
				bomb := bytes.Clone(cases[0].src)
				binary.LittleEndian.PutUint32(bomb[len(bomb)-4:], claim)
				cases = append(cases, struct {
					name    string
					src     []byte
					size    int
					wantErr error
				}{fmt.Sprintf("bomb/trailer=%d", claim), bomb, 3 * limit, codec.ErrTooLarge})
				short := bytes.Clone(cases[1].src)
				binary.LittleEndian.PutUint32(short[len(short)-4:], claim)
				cases = append(cases, struct {
					name    string
					src     []byte
					size    int
					wantErr error
				}{fmt.Sprintf("size=limit-1/trailer=%d", claim), short, limit - 1, codec.ErrCorrupt})
			}
			half := f.stdCompress(t, make([]byte, limit/2), 9)
			cases = append(cases, struct {
				name    string
				src     []byte
				size    int
				wantErr error
			}{"members=2", append(bytes.Clone(half), half...), limit / 2 * 2, nil})
		}
		for _, c := range cases {
			bound := uint64(bound)
			if c.name == "members=2" {
				bound = limit + limit/2 + 64<<10
			}
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				f.decompress(nil, c.src, limit) // warm the pool
				// The counter is the process's: keep the least of three
				// calls, as other goroutines can only add to it.
				var out []byte
				var err error
				allocated := uint64(math.MaxUint64)
				for range 3 {
					before := heapAllocated()
					out, err = f.decompress(nil, c.src, limit)
					allocated = min(allocated, heapAllocated()-before)
				}
				if c.wantErr != nil {
					if !errors.Is(err, c.wantErr) || len(out) != 0 {
						t.Fatalf("Decompress(%d bytes of zeros, limit %d) = %d bytes, %v; want %v", c.size, limit, len(out), err, c.wantErr)
					}
				} else if err != nil || len(out) != c.size {
					t.Fatalf("Decompress(%d bytes of zeros, limit %d) = %d bytes, %v", c.size, limit, len(out), err)
				}
				t.Logf("allocated %d bytes, %.2f times the limit", allocated, float64(allocated)/limit)
				if allocated > bound {
					t.Errorf("Decompress allocated %d bytes (%.2f times the limit), want at most %d (1.25 times the limit and 64 KiB)",
						allocated, float64(allocated)/limit, bound)
				}
			})
		}
	}
}
