package bytebuf

import (
	"testing"

	"github.com/reuse-go/reuse/reusetest"
)

// calibrated returns a pool that has seen a mixed workload.
func calibrated() (*Pool, *state) {
	var p Pool
	for i := range 20000 {
		x := p.Get()
		n := 100 + i%1000
		if i%50 == 0 {
			n = 300 << 10
		}
		x.Write(make([]byte, n))
		p.Put(x)
	}
	return &p, p.state()
}

func TestCalibrateDoesNotAllocate(t *testing.T) {
	p, st := calibrated()
	// No collection during the count: the sweep after one ages the large
	// arrays of every live pool (weak pointers, which allocate), and the
	// count covers every goroutine.
	reusetest.KeepPooled(t)
	reusetest.AllocsAtMost(t, 0, func() { p.calibrate(st) })
}

// TestCalibrateIsCheap guards against weights decaying into subnormal
// floats, which once made a calibration take 20 µs instead of 0.5.
func TestCalibrateIsCheap(t *testing.T) {
	p, st := calibrated()
	for range 5000 { // decay everything not sampled again
		p.calibrate(st)
	}
	for i, w := range st.weight {
		if w != 0 && w < 0.01 {
			t.Fatalf("weight[%d] = %g: tiny weights must be flushed to 0", i, w)
		}
	}
}

func BenchmarkCalibrate(b *testing.B) {
	p, st := calibrated()
	b.ReportAllocs()
	for b.Loop() {
		p.calibrate(st)
	}
}
