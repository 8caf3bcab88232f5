package doccheck

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"runtime"
	"strconv"
	"testing"
)

// allocated returns the bytes and allocations f makes, averaged over runs.
func allocated(runs int, f func()) (bytes, allocs float64) {
	f() // warm up what is made once
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(runs), float64(b.Mallocs-a.Mallocs) / float64(runs)
}

// near says whether got is within a twentieth of want.
func near(got, want float64) bool { return math.Abs(got-want) <= want/20 }

// TestGzipFigures checks the sizes gzpool's documentation gives for a
// compress/gzip writer and reader against what they allocate with this Go.
func TestGzipFigures(t *testing.T) {
	skipWasm(t) // and the race detector, which changes what is allocated
	writer := func(level int) func() {
		return func() {
			w, _ := gzip.NewWriterLevel(io.Discard, level)
			w.Write([]byte{1})
			w.Close()
		}
	}
	kb := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v * 1000
	}
	m := find(t, "gzpool/doc.go", `A new gzip.Writer costs about (\d+) KB and (\d+) allocations before it compresses a byte`)
	b, n := allocated(100, func() {
		w := gzip.NewWriter(io.Discard)
		w.Write([]byte{1}) // the compressor is made at the first Write
	})
	if !near(b, kb(m[1])) || strconv.Itoa(int(math.Round(n))) != m[2] {
		t.Errorf("gzpool/doc.go: a new gzip.Writer costs %s KB and %s allocations; it allocates %.0f KB in %.0f", m[1], m[2], b/1000, n)
	}
	if m := find(t, "README.md", `gzip without the (\d+) KB setup per call`); !near(b, kb(m[1])) {
		t.Errorf("README.md: gzip's setup is %s KB per call; a new writer allocates %.0f KB", m[1], b/1000)
	}
	m = find(t, "gzpool/doc.go", `holds (\d+) KB \(levels -2 and 0\), (\d+) KB \(levels 2 to 9\) or ([\d.]+) MB \(level 1, BestSpeed\); each reader about (\d+) KB`)
	for _, c := range []struct {
		levels []int
		want   float64
	}{
		{[]int{gzip.HuffmanOnly, gzip.NoCompression}, kb(m[1])},
		{[]int{2, 5, gzip.BestCompression}, kb(m[2])},
		{[]int{gzip.BestSpeed}, kb(m[3]) * 1000},
	} {
		for _, l := range c.levels {
			if b, _ := allocated(20, writer(l)); !near(b, c.want) {
				t.Errorf("gzpool/doc.go: a writer of level %d holds %.0f KB; it allocates %.0f KB", l, c.want/1000, b/1000)
			}
		}
	}
	// README.md gives the range of the writers' sizes in MB, to one decimal.
	r := find(t, "README.md", `pooled gzip writer holds ([\d.]+)–([\d.]+) MB`)
	lo, hi := math.Inf(1), 0.0
	for l := gzip.HuffmanOnly; l <= gzip.BestCompression; l++ {
		b, _ := allocated(5, writer(l))
		lo, hi = min(lo, b), max(hi, b)
	}
	if r[1] != strconv.FormatFloat(lo/1e6, 'f', 1, 64) || r[2] != strconv.FormatFloat(hi/1e6, 'f', 1, 64) {
		t.Errorf("README.md: a pooled gzip writer holds %s–%s MB; they allocate %.2f–%.2f MB", r[1], r[2], lo/1e6, hi/1e6)
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte("hello, world"))
	w.Close()
	b, _ = allocated(20, func() {
		r, _ := gzip.NewReader(bytes.NewReader(buf.Bytes()))
		io.Copy(io.Discard, r)
	})
	if !near(b, kb(m[4])) {
		t.Errorf("gzpool/doc.go: a reader holds about %s KB; it allocates %.0f KB", m[4], b/1000)
	}
}
