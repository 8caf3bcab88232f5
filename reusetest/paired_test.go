package reusetest_test

import (
	"testing"
	"time"

	"github.com/reuse-go/reuse/reusetest"
)

// TestPairedRatio checks that Paired reports the ratio of two workloads
// whose costs differ by a known factor.
func TestPairedRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("times a benchmark")
	}
	spin := func(d time.Duration) func() {
		return func() {
			for t0 := time.Now(); time.Since(t0) < d; {
			}
		}
	}
	r := testing.Benchmark(func(b *testing.B) {
		reusetest.Paired(b, 10, spin(20*time.Microsecond), spin(60*time.Microsecond))
	})
	x := r.Extra["x-base"]
	if x < 2 || x > 4.5 {
		t.Errorf("x-base = %.2f for a side three times as slow, want about 3", x)
	}
}
