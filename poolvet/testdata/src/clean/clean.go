// Package clean holds correct code that looks like the bad cases of the
// other suites. Nothing here may be reported.
package clean

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/kgzip"
	"helper"
)

var bufs = reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }, Reset: (*bytes.Buffer).Reset}

var other reuse.Pool[*bytes.Buffer]

var bytesPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var bb *bytebuf.Pool

var errBad = errors.New("bad")

type Result struct {
	Data []byte
	N    int
}

type conn struct {
	buf *bytes.Buffer
}

func process(b *bytes.Buffer) int { return b.Len() }

func cleanSliceBox(w io.Writer, n int) error {
	bp := bytesPool.Get().(*[]byte)
	buf := (*bp)[:0]
	buf = strconv.AppendInt(buf, int64(n), 10)
	_, err := w.Write(buf)
	*bp = buf[:0]
	bytesPool.Put(bp)
	return err
}

func cleanStringCopy() string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	s := string(b.Bytes())
	bufPool.Put(b)
	return s
}

func cleanDeferProcess() int {
	b := bufs.Get()
	defer bufs.Put(b)
	return process(b)
}

func cleanBranchReturn(fail bool) (*bytes.Buffer, error) {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		return nil, errBad
	}
	return b, nil
}

func cleanLoopBreak(items []string) int {
	n := 0
	for _, it := range items {
		b := bufs.Get()
		if it == "" {
			bufs.Put(b)
			continue
		}
		b.WriteString(it)
		n += b.Len()
		bufs.Put(b)
		if n > 100 {
			break
		}
	}
	return n
}

func cleanLoopOuter(items []string) {
	b := bufs.Get()
	for _, it := range items {
		b.WriteString(it)
	}
	bufs.Put(b)
}

func cleanSelect(ctx context.Context, ch chan int) error {
	b := bufs.Get()
	select {
	case <-ctx.Done():
		bufs.Put(b)
		return ctx.Err()
	case n := <-ch:
		b.WriteString(strconv.Itoa(n))
	}
	bufs.Put(b)
	return nil
}

func cleanTwoPools() {
	a := bufs.Get()
	bufs.Put(a)
	c := other.Get()
	other.Put(c)
}

func cleanCompare(x *bytes.Buffer) bool {
	b := bufs.Get()
	bufs.Put(b)
	return b == x
}

func cleanNamedCopy() (out []byte) {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	out = append(out, b.Bytes()...)
	return
}

func cleanResultCopy() Result {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString("x")
	return Result{Data: bytes.Clone(b.Bytes()), N: b.Len()}
}

func cleanCloseError(w io.Writer, p []byte) error {
	zw, err := gzpool.NewWriter(w, 6)
	if err != nil {
		return err
	}
	defer zw.Close()
	_, err = zw.Write(p)
	return err
}

func cleanCloseThenNil(w io.Writer) {
	zw, _ := kgzip.NewWriter(w, 6)
	zw.Close()
	zw = nil
	_ = zw
}

func cleanReaderLoop(rs []io.Reader) (n int) {
	for _, r := range rs {
		br := bufiopool.NewReader(r, 4096)
		for {
			if _, err := br.ReadByte(); err != nil {
				break
			}
			n++
		}
		br.Close()
	}
	return n
}

func (c *conn) cleanOwnerRelease() {
	if c.buf != nil {
		bufs.Put(c.buf)
		c.buf = nil
	}
}

func (c *conn) cleanOwnerAcquire() {
	c.buf = bufs.Get()
}

func cleanHelperRoundTrip() int {
	b := helper.Get()
	b.WriteString("x")
	n := b.Len()
	helper.Release(b)
	b = helper.Get()
	helper.Release(b)
	return n
}

func cleanDeferredClosureLastUse() []byte {
	b := bb.Get()
	n := 0
	defer func() {
		n = b.Len()
		bb.Put(b)
	}()
	b.WriteString("x")
	_ = n
	return append([]byte(nil), b.Bytes()...)
}

func cleanGoroutinePuts(wg *sync.WaitGroup, ch chan<- int) {
	b := bufs.Get()
	b.WriteString("x")
	wg.Add(1)
	go func(b *bytes.Buffer) {
		defer wg.Done()
		ch <- b.Len()
		bufs.Put(b)
	}(b)
}

func cleanGoroutineHelper() {
	b := helper.Get()
	go helper.Release(b)
}

func cleanSwitchEach(k int) {
	b := bufs.Get()
	switch k {
	case 0:
		bufs.Put(b)
	default:
		b.WriteString("x")
		bufs.Put(b)
	}
}

func cleanPanicPath(fail bool) {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		panic("fail")
	}
	b.WriteString("x")
	bufs.Put(b)
}

func cleanSliceLoop(s *reuse.Slices[int], n int) int {
	total := 0
	for i := 0; i < n; i++ {
		x := s.Get(i)
		total += len(x)
		s.Put(x)
	}
	return total
}

func cleanPutCopyOfHeader(dst *Result) {
	b := bufs.Get()
	b.WriteString("x")
	dst.N = b.Len()
	dst.Data = append(dst.Data[:0], b.Bytes()...)
	bufs.Put(b)
}

func cleanReturnedHandle(w io.Writer) (*gzpool.Writer, error) {
	zw, err := gzpool.NewWriter(w, 6)
	if err != nil {
		return nil, err
	}
	return zw, nil
}

func cleanCapAfter(s *reuse.Slices[byte], n int) int {
	x := s.Get(n)
	s.Put(x)
	return cap(x)
}

func cleanInterfaceCloseDeferred(w io.Writer, p []byte) error {
	zw, _ := kgzip.NewWriter(w, 6)
	var c io.Closer = zw
	defer c.Close()
	_, err := zw.Write(p)
	return err
}

// The field swap of grpc-go (credentials/alts/internal/conn/record.go,
// v1.85.0): the handle in a field is replaced by a new pooled buffer, and
// only then is the old one Put. p is the new buffer: it was reported as a
// use after Put, because every load of p.h counted as one value.
type swapConn struct {
	h *[]byte
}

var swapPool = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}

func (c *swapConn) cleanFieldSwap(data []byte) []byte {
	old := c.h
	c.h = swapPool.Get().(*[]byte)
	p := (*c.h)[:0]
	swapPool.Put(old)
	p = append(p, data...)
	return append([]byte(nil), p...)
}

// The shape of fasthttp v1.56.0's client.go: a pooled channel handed to a
// goroutine, which sends on it only while the caller has not given up;
// the caller receives, or gives up under the lock, before the Put.
var chPool sync.Pool

func cleanGoroutineSynchronized(work func() int) int {
	chv := chPool.Get()
	if chv == nil {
		chv = make(chan int, 1)
	}
	ch := chv.(chan int)
	var mu sync.Mutex
	var timedout bool
	go func() {
		v := work()
		mu.Lock()
		if !timedout {
			ch <- v
		}
		mu.Unlock()
	}()
	var v int
	select {
	case v = <-ch:
	default:
		mu.Lock()
		timedout = true
		mu.Unlock()
	}
	chPool.Put(chv)
	return v
}
