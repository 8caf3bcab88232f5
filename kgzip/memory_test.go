package kgzip_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"runtime/metrics"
	"testing"

	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/kgzip"
)

// TestDecompressMemory bounds what one Decompress allocates by 1.25 times
// the limit plus 128 KiB (a buffer and two klauspost decoders), as the core
// module's codec tests do for gzpool: on a bomb, on a bomb whose trailer
// claims a small size, and on a valid stream of two members, which
// Decompress decodes twice.
func TestDecompressMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector changes what the heap counts")
	}
	const limit = 4 << 20
	const bound = limit + limit/4 + 128<<10
	compress := func(n int) []byte {
		z, err := kgzip.Compress(nil, make([]byte, n), 9)
		if err != nil {
			t.Fatal(err)
		}
		return z
	}
	bomb := compress(3 * limit)
	lying := bytes.Clone(bomb)
	binary.LittleEndian.PutUint32(lying[len(lying)-4:], 1000)
	third := compress(limit / 3)
	for _, c := range []struct {
		name    string
		src     []byte
		size    int
		wantErr error
	}{
		{"bomb", bomb, 3 * limit, kgzip.ErrTooLarge},
		{"bomb/trailer=1000", lying, 3 * limit, kgzip.ErrTooLarge},
		{"members=2", append(bytes.Clone(third), third...), limit / 3 * 2, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The counter is the process's: keep the least of three calls,
			// as other goroutines can only add to it.
			s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
			var out []byte
			var err error
			allocated := uint64(math.MaxUint64)
			for range 3 {
				metrics.Read(s)
				before := s[0].Value.Uint64()
				out, err = kgzip.Decompress(nil, c.src, limit)
				metrics.Read(s)
				allocated = min(allocated, s[0].Value.Uint64()-before)
			}
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || len(out) != 0 {
					t.Fatalf("Decompress(%d bytes of zeros, limit %d) = %d bytes, %v; want %v", c.size, limit, len(out), err, c.wantErr)
				}
			} else if err != nil || len(out) != c.size || bytes.ContainsFunc(out, func(r rune) bool { return r != 0 }) {
				t.Fatalf("Decompress(%d bytes of zeros, limit %d) = %d bytes, %v", c.size, limit, len(out), err)
			}
			t.Logf("allocated %d bytes, %.2f times the limit", allocated, float64(allocated)/limit)
			if allocated > bound {
				t.Errorf("Decompress allocated %d bytes (%.2f times the limit), want at most %d", allocated, float64(allocated)/limit, bound)
			}
		})
	}
}
