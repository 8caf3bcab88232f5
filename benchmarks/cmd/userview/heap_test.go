package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// sinkObjects keeps TestPeakExactSeesCachedSpan's objects alive.
var sinkObjects []*[1024]byte

// TestPeakExactSeesCachedSpan checks that an exact sample counts small
// objects whose span is still in a P's cache, which the runtime metric
// does not count yet: six objects of 1 KiB fill only part of one 8 KiB span.
func TestPeakExactSeesCachedSpan(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	p := newPeak()
	sinkObjects = make([]*[1024]byte, 0, 6)
	runtime.GC()
	base := heapNow(&p.ms) // flushes the caches: the next object starts a span
	for range cap(sinkObjects) {
		sinkObjects = append(sinkObjects, new([1024]byte))
	}
	p.take()
	coarse := p.max - base
	p.takeExact()
	if got, want := p.max-base, int64(6<<10); got < want {
		t.Errorf("exact sample: %d bytes over the base, want at least %d (the metric alone: %d)", got, want, coarse)
	}
	sinkObjects = nil
}

// TestCoarseMark checks that only a report whose heaps come from the metric
// alone marks the dominated rows under its granularity.
func TestCoarseMark(t *testing.T) {
	ref := result{NsPerOp: 100, PeakHeap: 16 << 10}
	fast := result{NsPerOp: 80, PeakHeap: 8 << 10}
	rw := &row{Shape: "s", Mode: "serial", Procs: 1, Results: map[string][]result{reference: {ref}, "zap": {fast}}}
	judge(rw, []string{"zap", reference})
	for _, c := range []struct {
		heap string
		want bool
	}{{"", true}, {heapExact, false}} {
		var sb strings.Builder
		writeMarkdown(&sb, &report{Peers: []string{"zap", reference}, Rows: []*row{rw}, Heap: c.heap})
		if got := strings.Contains(sb.String(), "| s † |"); got != c.want {
			t.Errorf("heap %q: marked † %v, want %v", c.heap, got, c.want)
		}
	}
}
