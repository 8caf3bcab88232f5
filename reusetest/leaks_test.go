//go:build reusedebug && !tinygo

package reusetest_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/flatepool"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/reusetest"
	"github.com/reuse-go/reuse/zlibpool"
)

// Pools for TestEveryPoolReportsLeaks, at package level so that the pools
// outlive what they hand out.
var (
	leakPool   = reuse.Pool[*[64]byte]{New: func() *[64]byte { return new([64]byte) }}
	leakBufs   bytebuf.Pool
	leakValues jsonpool.Values[[64]byte]
	leakSlices reuse.Slices[int64]
)

// leak* take one object each and drop it without giving it back. They are
// not inlined, so that the reports can name them.

//go:noinline
func leakPoolGet() { x := leakPool.Get(); x[0] = 1 }

// The Slices lengths are used by no other test, so that the first leak
// finds the class empty and Get makes the slice.

//go:noinline
func leakSlicesNew() { leakSlices.Get(300)[0] = 1 }

//go:noinline
func leakSlicesPooled() {
	leakSlices.Put(leakSlices.Get(600))
	leakSlices.Get(600)[0] = 1
}

//go:noinline
func leakBytebuf() { leakBufs.Get().WriteString("x") }

//go:noinline
func leakGzipWriter() {
	w, _ := gzpool.NewWriter(io.Discard, -1)
	w.Write([]byte("x"))
}

//go:noinline
func leakGzipReader() {
	r, _ := gzpool.NewReader(bytes.NewReader(gzipped))
	r.Read(make([]byte, 1))
}

//go:noinline
func leakZlibWriter() {
	w, _ := zlibpool.NewWriter(io.Discard, -1)
	w.Write([]byte("x"))
}

//go:noinline
func leakZlibReader() {
	r, _ := zlibpool.NewReader(bytes.NewReader(zlibbed))
	r.Read(make([]byte, 1))
}

//go:noinline
func leakFlateWriter() {
	w, _ := flatepool.NewWriter(io.Discard, -1)
	w.Write([]byte("x"))
}

//go:noinline
func leakFlateReader() {
	r, _ := flatepool.NewReader(bytes.NewReader(deflated))
	r.Read(make([]byte, 1))
}

// The bufiopool sizes are used by no other test, so that the first leak
// finds the class's pool empty: the case the debug build used to miss.

//go:noinline
func leakBufioReader() { bufiopool.NewReader(strings.NewReader("x"), 2048).ReadByte() }

//go:noinline
func leakBufioWriter() { bufiopool.NewWriter(io.Discard, 2048).WriteByte('x') }

//go:noinline
func leakBufioReaderPooled() {
	bufiopool.NewReader(strings.NewReader("x"), 1024).Close()
	bufiopool.NewReader(strings.NewReader("x"), 1024).ReadByte()
}

//go:noinline
func leakJSONValuesGet() { v := leakValues.Get(); v[0] = 1 }

//go:noinline
func leakJSONValuesDecode() {
	v, _ := leakValues.Decode(strings.NewReader("[1]"), 100)
	v[1] = 1
}

// discard* take one object each and give it up with Discard.

//go:noinline
func discardPoolGet() { leakPool.Discard(leakPool.Get()) }

//go:noinline
func discardSlices() { leakSlices.Discard(leakSlices.Get(900)) }

//go:noinline
func discardBytebuf() { leakBufs.Discard(leakBufs.Get()) }

//go:noinline
func discardGzipWriter() {
	w, _ := gzpool.NewWriter(io.Discard, -1)
	w.Discard()
}

//go:noinline
func discardGzipReader() {
	r, _ := gzpool.NewReader(bytes.NewReader(gzipped))
	r.Discard()
}

//go:noinline
func discardZlibWriter() {
	w, _ := zlibpool.NewWriter(io.Discard, -1)
	w.Discard()
}

//go:noinline
func discardZlibReader() {
	r, _ := zlibpool.NewReader(bytes.NewReader(zlibbed))
	r.Discard()
}

//go:noinline
func discardFlateWriter() {
	w, _ := flatepool.NewWriter(io.Discard, -1)
	w.Discard()
}

//go:noinline
func discardFlateReader() {
	r, _ := flatepool.NewReader(bytes.NewReader(deflated))
	r.Discard()
}

//go:noinline
func discardBufioReader() {
	bufiopool.DiscardReader(bufiopool.NewReader(strings.NewReader("x"), 4096))
}

//go:noinline
func discardBufioWriter() { bufiopool.DiscardWriter(bufiopool.NewWriter(io.Discard, 4096)) }

//go:noinline
func discardJSONValues() { leakValues.Discard(leakValues.Get()) }

var gzipped, zlibbed, deflated = compressed()

func compressed() (gz, zl, fl []byte) {
	gz, _ = gzpool.Compress(nil, []byte("hello"), -1)
	zl, _ = zlibpool.Compress(nil, []byte("hello"), -1)
	fl, _ = flatepool.Compress(nil, []byte("hello"), -1)
	return gz, zl, fl
}

// TestEveryPoolReportsLeaks drops one object of every kind the module's
// pools hand out, and checks that the debug build reports exactly one leak
// for it, naming the function that took it and the call it made. (kgzip, a module of its own,
// has the same test for its Reader and Writer.)
func TestEveryPoolReportsLeaks(t *testing.T) {
	tests := []struct {
		name string
		leak func()
		fn   string // the function the report must name, first in its stack
		pool string // how the report must name the pool, what the caller holds
		call string // how the report must name the call that took the object
	}{
		{"reuse.Pool", leakPoolGet, "leakPoolGet", "*reuse.Pool[", "reuse.Pool.Get"},
		{"reuse.Slices/empty pool", leakSlicesNew, "leakSlicesNew", "*reuse.Slices[", "reuse.Slices.Get"},
		{"reuse.Slices/from pool", leakSlicesPooled, "leakSlicesPooled", "*reuse.Slices[", "reuse.Slices.Get"},
		{"bytebuf.Pool", leakBytebuf, "leakBytebuf", "*bytebuf.Pool at ", "bytebuf.Pool.Get"},
		{"gzpool.Writer", leakGzipWriter, "leakGzipWriter", "gzpool.Writer (pool at ", "gzpool.NewWriter"},
		{"gzpool.Reader", leakGzipReader, "leakGzipReader", "gzpool.Reader (pool at ", "gzpool.NewReader"},
		{"zlibpool.Writer", leakZlibWriter, "leakZlibWriter", "zlibpool.Writer (pool at ", "zlibpool.NewWriter"},
		{"zlibpool.Reader", leakZlibReader, "leakZlibReader", "zlibpool.Reader (pool at ", "zlibpool.NewReader"},
		{"flatepool.Writer", leakFlateWriter, "leakFlateWriter", "flatepool.Writer (pool at ", "flatepool.NewWriter"},
		{"flatepool.Reader", leakFlateReader, "leakFlateReader", "flatepool.Reader (pool at ", "flatepool.NewReader"},
		{"bufiopool.Reader/empty pool", leakBufioReader, "leakBufioReader", "bufiopool.Reader (pool at ", "bufiopool.NewReader"},
		{"bufiopool.Writer/empty pool", leakBufioWriter, "leakBufioWriter", "bufiopool.Writer (pool at ", "bufiopool.NewWriter"},
		{"bufiopool.Reader/from pool", leakBufioReaderPooled, "leakBufioReaderPooled", "bufiopool.Reader (pool at ", "bufiopool.NewReader"},
		{"jsonpool.Values.Get", leakJSONValuesGet, "leakJSONValuesGet", "*reuse.Pool[*[64]byte]", "jsonpool.Values.Get"},
		{"jsonpool.Values.Decode", leakJSONValuesDecode, "leakJSONValuesDecode", "*reuse.Pool[*[64]byte]", "jsonpool.Values.Decode"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := &recordTB{TB: t}
			reusetest.FailOnMisuse(rt)
			tc.leak()
			rt.end() // collects, and waits for the reports
			if len(rt.errors) != 1 {
				t.Fatalf("%s: %d reports %q, want one leak", tc.name, len(rt.errors), rt.errors)
			}
			if r := rt.errors[0]; !strings.HasPrefix(r, "reuse: leak on "+tc.pool) {
				t.Errorf("%s: report %q, want a leak on %s...", tc.name, r, tc.pool)
			}
			if r, want := rt.errors[0], " was taken by "+tc.call+" at "; !strings.Contains(r, want) {
				t.Errorf("%s: report %q, want it to name the call, %q", tc.name, r, want)
			}
			// The stack starts at the caller's frame, not in the pool's.
			if r, want := rt.errors[0], "\nGet:\n\tgithub.com/reuse-go/reuse/reusetest_test."+tc.fn+"\n"; !strings.Contains(r, want) {
				t.Errorf("%s: report's Get stack does not start in %s:\n%s", tc.name, tc.fn, r)
			}
		})
	}
}

// TestDiscardIsNotALeak gives up one object of every kind with its pool's
// Discard, and checks that the debug build reports nothing.
func TestDiscardIsNotALeak(t *testing.T) {
	for _, tc := range []struct {
		name    string
		discard func()
	}{
		{"reuse.Pool", discardPoolGet},
		{"reuse.Slices", discardSlices},
		{"bytebuf.Pool", discardBytebuf},
		{"gzpool.Writer", discardGzipWriter},
		{"gzpool.Reader", discardGzipReader},
		{"zlibpool.Writer", discardZlibWriter},
		{"zlibpool.Reader", discardZlibReader},
		{"flatepool.Writer", discardFlateWriter},
		{"flatepool.Reader", discardFlateReader},
		{"bufiopool.DiscardReader", discardBufioReader},
		{"bufiopool.DiscardWriter", discardBufioWriter},
		{"jsonpool.Values", discardJSONValues},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &recordTB{TB: t}
			reusetest.FailOnMisuse(rt)
			tc.discard()
			rt.end()
			if len(rt.errors) != 0 {
				t.Errorf("%s: Discard, then collection: reports %q, want none", tc.name, rt.errors)
			}
		})
	}
}

// grow appends to x past its capacity, so that append replaces its array,
// and returns the new slice.
//
//go:noinline
func grow(x []int64) []int64 {
	for range cap(x) + 1 {
		x = append(x, 7)
	}
	return x
}

// TestSlicesGrownIsNotALeak checks the case that makes the leaks of slices
// hard to tell: append replaces the array a Get handed out, and the new
// array is Put. The old array, collected while out, must not be reported,
// whether the Put comes before the collection or after it.
func TestSlicesGrownIsNotALeak(t *testing.T) {
	for _, gcFirst := range []bool{false, true} {
		rt := &recordTB{TB: t}
		reusetest.FailOnMisuse(rt)
		x := grow(leakSlices.Get(100))
		if gcFirst {
			reusetest.Collect()
			reusetest.Collect()
		}
		leakSlices.Put(x)
		rt.end()
		if len(rt.errors) != 0 {
			t.Errorf("Put of the grown slice (collection first: %v): reports %q, want none", gcFirst, rt.errors)
		}
	}
}
