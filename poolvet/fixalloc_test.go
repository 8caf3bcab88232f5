package poolvet_test

import (
	"runtime/debug"
	"sync"
	"testing"
)

// The three forms of a Get and Put of a []byte: as the non-pointer report
// finds it, as Put(&b) would silence it, and as its fix rewrites it.
var (
	boxed = sync.Pool{New: func() any { return make([]byte, 0, 64) }}
	addr  = sync.Pool{New: func() any { v := make([]byte, 0, 64); return &v }}
	kept  = sync.Pool{New: func() any { v := make([]byte, 0, 64); return &v }}
	sink  int
)

func useBoxed(p []byte) {
	b := boxed.Get().([]byte)
	b = append(b[:0], p...)
	sink += len(b)
	//lint:ignore SA6002 the boxing is what is measured
	boxed.Put(b[:0])
}

func useAddr(p []byte) {
	b := *(addr.Get().(*[]byte))
	b = append(b[:0], p...)
	sink += len(b)
	b = b[:0]
	addr.Put(&b)
}

func useKept(p []byte) {
	bp := kept.Get().(*[]byte)
	b := *bp
	b = append(b[:0], p...)
	sink += len(b)
	*bp = b[:0]
	kept.Put(bp)
}

// TestFixAllocs backs the pointer rewrite's claim: the form it writes
// allocates nothing per Get and Put, where the boxed Put allocates once,
// and so does Put(&b), which is why that is not the fix. The GC is off so
// that the pools keep what they are given.
func TestFixAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops Puts at random")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	p := []byte("abc")
	for _, c := range []struct {
		name string
		f    func([]byte)
		want float64
	}{{"boxed", useBoxed, 1}, {"Put(&b)", useAddr, 1}, {"fixed", useKept, 0}} {
		if got := testing.AllocsPerRun(100, func() { c.f(p) }); got != c.want {
			t.Errorf("%s: %v allocations per Get and Put, want %v", c.name, got, c.want)
		}
	}
}
