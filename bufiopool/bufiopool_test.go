package bufiopool_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/reusetest"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct{ size, want int }{
		{-1, 16}, {0, 16}, {1, 16}, {15, 16}, {16, 16}, {17, 32}, {100, 128},
		{4095, 4096}, {4096, 4096}, {4097, 8192},
		{bufiopool.MaxPooledSize - 1, bufiopool.MaxPooledSize}, {bufiopool.MaxPooledSize, bufiopool.MaxPooledSize},
		{bufiopool.MaxPooledSize + 1, bufiopool.MaxPooledSize + 1}, {1 << 20, 1 << 20},
	} {
		r := bufiopool.NewReader(strings.NewReader(""), tc.size)
		if got := r.Size(); got != tc.want {
			t.Errorf("NewReader(size %d).Size() = %d, want %d", tc.size, got, tc.want)
		}
		r.Close()
		w := bufiopool.NewWriter(io.Discard, tc.size)
		if got := w.Size(); got != tc.want {
			t.Errorf("NewWriter(size %d).Size() = %d, want %d", tc.size, got, tc.want)
		}
		w.Close()
	}
}

// TestSizesExhaustive checks every size up to twice the bound: the buffer is
// never smaller than asked (nor than MinSize), pooled sizes are powers of two
// less than twice the request, and larger sizes are exact.
func TestSizesExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for size := 0; size <= 2*bufiopool.MaxPooledSize; size += 1 + size/64 {
		r := bufiopool.NewReader(nil, size)
		got := r.Size()
		r.Close()
		switch {
		case got < max(size, bufiopool.MinSize):
			t.Fatalf("NewReader(size %d).Size() = %d, smaller than asked", size, got)
		case size > bufiopool.MaxPooledSize && got != size:
			t.Fatalf("NewReader(size %d).Size() = %d, want exactly %d above MaxPooledSize", size, got, size)
		case size <= bufiopool.MaxPooledSize && (got&(got-1) != 0 || got >= 2*max(size, 9)):
			t.Fatalf("NewReader(size %d).Size() = %d, want the next power of two", size, got)
		}
	}
}

func TestReader(t *testing.T) {
	text := strings.Repeat("line of text\n", 500)
	for _, size := range []int{0, 16, 100, 4096, 1 << 20} {
		t.Run(fmt.Sprintf("size=%d", size), func(t *testing.T) {
			for range 3 {
				r := bufiopool.NewReader(strings.NewReader(text), size)
				var got strings.Builder
				for {
					line, err := r.ReadString('\n')
					got.WriteString(line)
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if err := r.Close(); err != nil {
					t.Errorf("Close() = %v", err)
				}
				if got.String() != text {
					t.Fatalf("read %d bytes, want the %d written", got.Len(), len(text))
				}
			}
		})
	}
}

// TestReaderNoCarryOver closes a reader with data still buffered; the next
// reader from the same pool reads only its own source.
func TestReaderNoCarryOver(t *testing.T) {
	reusetest.KeepPooled(t)
	r := bufiopool.NewReader(strings.NewReader("first source, partly read"), 256)
	pooled := r.Reader
	if b, _ := r.ReadByte(); b != 'f' {
		t.Fatalf("ReadByte() = %q", b)
	}
	r.Close()
	r = bufiopool.NewReader(strings.NewReader("second"), 256)
	if r.Reader != pooled {
		t.Fatal("the second reader is not the recycled first one: the test proves nothing")
	}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "second" {
		t.Errorf("second reader read %q, %v; want %q, nil", got, err, "second")
	}
	r.Close()
}

// TestCallersBufio passes a caller's *bufio.Reader and *bufio.Writer, which
// bufio.NewReaderSize and NewWriterSize would return as they are: Close must
// not reset or pool the caller's object.
func TestCallersBufio(t *testing.T) {
	for _, size := range []int{128, 1 << 20} {
		src := bufio.NewReaderSize(strings.NewReader("abcdef"), 2<<20)
		r := bufiopool.NewReader(src, size)
		if r.Reader == src {
			t.Fatalf("NewReader(caller's *bufio.Reader, %d) returned the caller's reader", size)
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != "abcdef" {
			t.Errorf("size %d: read %q, %v; want %q", size, got, err, "abcdef")
		}
		r.Close()
		// A reset caller's reader would have lost its source and panic.
		if rest, err := io.ReadAll(src); err != nil || len(rest) != 0 || src.Size() != 2<<20 {
			t.Errorf("size %d: caller's reader after Close: %q, %v, size %d; want empty, nil, %d", size, rest, err, src.Size(), 2<<20)
		}

		var out bytes.Buffer
		dst := bufio.NewWriterSize(&out, 2<<20)
		w := bufiopool.NewWriter(dst, size)
		if w.Writer == dst {
			t.Fatalf("NewWriter(caller's *bufio.Writer, %d) returned the caller's writer", size)
		}
		w.WriteString("xyz")
		w.Close()
		dst.WriteString("!")
		dst.Flush()
		if out.String() != "xyz!" {
			t.Errorf("size %d: caller's writer after Close wrote %q, want %q", size, out.String(), "xyz!")
		}
	}
}

func TestWriter(t *testing.T) {
	for _, size := range []int{0, 16, 100, 4096, 1 << 20} {
		t.Run(fmt.Sprintf("size=%d", size), func(t *testing.T) {
			for i := range 3 {
				var out bytes.Buffer
				w := bufiopool.NewWriter(&out, size)
				want := strings.Repeat(fmt.Sprintf("record %d\n", i), 300)
				if _, err := w.WriteString(want); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Errorf("Close() = %v", err)
				}
				if out.String() != want {
					t.Fatalf("wrote %d bytes, want %d (Close must flush)", out.Len(), len(want))
				}
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestWriterErrorAndUnflushedData puts back a writer whose underlying writer
// failed, with data still buffered: bufio.Writer keeps that error forever
// and would return it from every later write. The next user of the same
// buffer must see neither the error nor the data.
func TestWriterErrorAndUnflushedData(t *testing.T) {
	reusetest.KeepPooled(t)
	errDisk := errors.New("disk full")
	w := bufiopool.NewWriter(failWriter{errDisk}, 64)
	pooled := w.Writer
	w.WriteString(strings.Repeat("x", 100)) // overflows the buffer: fails
	w.WriteString("secret")                 // stays buffered
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Errorf("Close() = %v, want %v", err, errDisk)
	}

	var out bytes.Buffer
	w = bufiopool.NewWriter(&out, 64)
	if w.Writer != pooled {
		t.Fatal("the second writer is not the recycled first one: the test proves nothing")
	}
	if n := w.Buffered(); n != 0 {
		t.Errorf("recycled writer has %d bytes buffered, want 0", n)
	}
	if _, err := w.WriteString("fresh"); err != nil {
		t.Errorf("WriteString on a recycled writer = %v, want nil", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close() on a recycled writer = %v, want nil", err)
	}
	if out.String() != "fresh" {
		t.Errorf("recycled writer wrote %q, want %q", out.String(), "fresh")
	}
}

func TestCloseTwice(t *testing.T) {
	r := bufiopool.NewReader(strings.NewReader("x"), 64)
	if err := r.Close(); err != nil {
		t.Errorf("first Reader.Close() = %v, want nil", err)
	}
	if err := r.Close(); !errors.Is(err, bufiopool.ErrClosed) {
		t.Errorf("second Reader.Close() = %v, want ErrClosed", err)
	}
	w := bufiopool.NewWriter(io.Discard, 64)
	if err := w.Close(); err != nil {
		t.Errorf("first Writer.Close() = %v, want nil", err)
	}
	if err := w.Close(); !errors.Is(err, bufiopool.ErrClosed) {
		t.Errorf("second Writer.Close() = %v, want ErrClosed", err)
	}
}

// TestUseAfterClosePanics checks that a use after Close fails on the
// caller's goroutine rather than reaching the pooled object.
func TestUseAfterClosePanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Reader.Read", func() {
			r := bufiopool.NewReader(strings.NewReader("x"), 64)
			r.Close()
			r.Read(make([]byte, 1))
		}},
		{"Writer.Write", func() {
			w := bufiopool.NewWriter(io.Discard, 64)
			w.Close()
			w.Write([]byte("x"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s after Close did not panic", tc.name)
				}
			}()
			tc.f()
		})
	}
}

// TestNoPinning checks that a closed Reader or Writer, back in the pool, does
// not keep the caller's reader or writer alive.
func TestNoPinning(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  func(chan struct{}) any
	}{
		{"Reader", func(c chan struct{}) any {
			src := strings.NewReader("some data")
			runtime.AddCleanup(src, func(c chan struct{}) { close(c) }, c)
			r := bufiopool.NewReader(src, 512)
			br := r.Reader
			r.ReadByte()
			r.Close()
			return br
		}},
		{"Writer", func(c chan struct{}) any {
			dst := new(bytes.Buffer)
			runtime.AddCleanup(dst, func(c chan struct{}) { close(c) }, c)
			w := bufiopool.NewWriter(dst, 512)
			bw := w.Writer
			w.WriteString("unflushed")
			bw.Flush()
			w.WriteString("data")
			w.Close()
			return bw
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			collected := make(chan struct{})
			pooled := tc.use(collected)
			runtime.GC()
			select {
			case <-collected:
			case <-time.After(2 * time.Second):
				t.Errorf("%s: the caller's object survived a collection while the pooled %T was alive: it is pinned", tc.name, pooled)
			}
			runtime.KeepAlive(pooled)
		})
	}
}

func TestAllocs(t *testing.T) {
	var src strings.Reader
	buf := make([]byte, 100)
	for _, size := range []int{4096, bufiopool.MaxPooledSize} {
		t.Run(fmt.Sprintf("Reader/size=%d", size), func(t *testing.T) {
			a := reusetest.AllocsAtMost(t, 1, func() {
				src.Reset("hello, world")
				r := bufiopool.NewReader(&src, size)
				r.Read(buf)
				r.Close()
			})
			t.Logf("%v", a)
		})
		t.Run(fmt.Sprintf("Writer/size=%d", size), func(t *testing.T) {
			a := reusetest.AllocsAtMost(t, 1, func() {
				w := bufiopool.NewWriter(io.Discard, size)
				w.WriteString("hello, world")
				w.Close()
			})
			t.Logf("%v", a)
		})
	}
}

// TestHammer reads and writes through pooled buffers of several sizes from
// many goroutines and checks every byte; run it with -race -cpu=1,4.
func TestHammer(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				size := 16 << ((g + i) % 8)
				msg := strings.Repeat(fmt.Sprintf("g%d i%d;", g, i), 1+i%40)
				var out bytes.Buffer
				w := bufiopool.NewWriter(&out, size)
				w.WriteString(msg)
				if err := w.Close(); err != nil || out.String() != msg {
					t.Errorf("goroutine %d: wrote %q, %v; want %q", g, out.String(), err, msg)
					return
				}
				r := bufiopool.NewReader(&out, size)
				got, err := io.ReadAll(r)
				r.Close()
				if err != nil || string(got) != msg {
					t.Errorf("goroutine %d: read %q, %v; want %q", g, got, err, msg)
					return
				}
			}
		}()
	}
	wg.Wait()
}
