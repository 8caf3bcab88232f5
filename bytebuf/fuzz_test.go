package bytebuf_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"testing"
	"testing/iotest"
	"time"

	"github.com/reuse-go/reuse/bytebuf"
)

// ops reads a sequence of operations from fuzz input.
type ops struct{ in []byte }

func (o *ops) done() bool { return len(o.in) == 0 }

func (o *ops) byte() byte {
	if len(o.in) == 0 {
		return 0
	}
	c := o.in[0]
	o.in = o.in[1:]
	return c
}

func (o *ops) uint64() uint64 {
	var u uint64
	for range 8 {
		u = u<<8 | uint64(o.byte())
	}
	return u
}

// chunk returns up to 255 bytes of input; a length byte of 255 asks for a
// long run of bytes instead, so that buffers also grow large.
func (o *ops) chunk() []byte {
	n := int(o.byte())
	if n == 255 {
		return bytes.Repeat([]byte{o.byte()}, 70000)
	}
	n = min(n, len(o.in))
	c := o.in[:n]
	o.in = o.in[n:]
	return c
}

// shortWriter accepts n bytes, then fails with err (nil: a short write
// without an error).
type shortWriter struct {
	n   int
	err error
	out bytes.Buffer
}

func (w *shortWriter) Write(p []byte) (int, error) {
	m := min(w.n, len(p))
	w.out.Write(p[:m])
	if m < len(p) {
		return m, w.err
	}
	return m, nil
}

var errWriter = errors.New("writer failed")

// maxSelfLen is the length past which the ops that write a buffer's own
// bytes into it (18, 19) do nothing: each may double the buffer, and a
// run of them (found by the fuzzer) exhausted memory in bytes.Buffer too.
// 256 KiB still takes them across the shelved classes.
const maxSelfLen = 256 << 10

// FuzzBufferMatchesBytesBuffer drives a random sequence of write-side
// operations on a bytes.Buffer, a zero bytebuf.Buffer and a Buffer from a
// Pool, and checks that after each one all three hold the same bytes and
// every call returned the same results.
func FuzzBufferMatchesBytesBuffer(f *testing.F) {
	f.Add([]byte{0, 5, 'h', 'e', 'l', 'l', 'o', 2, '!', 9, 3, 5})
	f.Add([]byte{3, 0xf0, 0x9f, 0x98, 0x80, 3, 0xff, 0xff, 0xff, 0xff, 10, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 255, 'x', 6, 10, 1, 16, 0, 255, 'y', 7, 8, 200, 8, 100})
	f.Add([]byte{4, 20, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 5})
	f.Add([]byte{12, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, 'g', 3, 14, 3, 'a', '"', 'b', 15, 1, 2, 3, 4, 5, 6, 7, 8, 0})
	f.Add([]byte{3, 0, 0, 0, 0xe9, 0, 0, 0, 0, 3, 0, 0, 0x10, 0xff, 0, 0, 0, 0, 3, 0, 0, 0xd8, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 0, 255, 'z', 16, 0, 255, 'z', 16, 16, 0, 3, 'a', 'b', 'c'})
	f.Add([]byte{0, 3, 'a', 'b', 'c', 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 1, 0, 255, 's', 18, 7, 18, 0})
	f.Add([]byte{0, 3, 'a', 'b', 'c', 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 18, 0, 19, 1, 0, 255, 'r', 19, 5})
	var pool bytebuf.Pool
	f.Fuzz(func(t *testing.T, in []byte) {
		var want bytes.Buffer
		var zero bytebuf.Buffer
		pooled := pool.Get()
		defer func() { pool.Put(pooled) }()
		got := []*bytebuf.Buffer{&zero, pooled}
		names := []string{"zero Buffer", "pooled Buffer"}

		o := &ops{in: in}
		for step := 0; !o.done(); step++ {
			op := o.byte() % 20
			switch op {
			case 0:
				c := o.chunk()
				n, err := want.Write(c)
				for k, b := range got {
					if m, e := b.Write(c); m != n || e != err {
						t.Fatalf("step %d: %s: Write = %d, %v; want %d, %v", step, names[k], m, e, n, err)
					}
				}
			case 1:
				s := string(o.chunk())
				n, err := want.WriteString(s)
				for k, b := range got {
					if m, e := b.WriteString(s); m != n || e != err {
						t.Fatalf("step %d: %s: WriteString = %d, %v; want %d, %v", step, names[k], m, e, n, err)
					}
				}
			case 2:
				c := o.byte()
				want.WriteByte(c)
				for _, b := range got {
					if err := b.WriteByte(c); err != nil {
						t.Fatalf("step %d: WriteByte: %v", step, err)
					}
				}
			case 3:
				r := rune(uint32(o.uint64() >> 32))
				n, err := want.WriteRune(r)
				for k, b := range got {
					if m, e := b.WriteRune(r); m != n || e != err {
						t.Fatalf("step %d: %s: WriteRune(%U) = %d, %v; want %d, %v", step, names[k], r, m, e, n, err)
					}
				}
			case 4:
				c := o.chunk()
				mode := o.byte() % 3
				reader := func() io.Reader {
					switch mode {
					case 1:
						return iotest.OneByteReader(bytes.NewReader(c))
					case 2:
						return io.MultiReader(bytes.NewReader(c), iotest.ErrReader(errWriter))
					}
					return bytes.NewReader(c)
				}
				n, err := want.ReadFrom(reader())
				for k, b := range got {
					if m, e := b.ReadFrom(reader()); m != n || e != err {
						t.Fatalf("step %d: %s: ReadFrom = %d, %v; want %d, %v", step, names[k], m, e, n, err)
					}
				}
			case 5:
				var w bytes.Buffer
				n, err := want.WriteTo(&w)
				for k, b := range got {
					var v bytes.Buffer
					if m, e := b.WriteTo(&v); m != n || e != err || !bytes.Equal(v.Bytes(), w.Bytes()) {
						t.Fatalf("step %d: %s: WriteTo = %d, %v, wrote %q; want %d, %v, %q", step, names[k], m, e, v.Bytes(), n, err, w.Bytes())
					}
				}
			case 6:
				limit := int(o.byte())
				var err0 error
				if o.byte()%2 == 0 {
					err0 = errWriter
				}
				w := &shortWriter{n: limit, err: err0}
				n, err := want.WriteTo(w)
				for k, b := range got {
					v := &shortWriter{n: limit, err: err0}
					if m, e := b.WriteTo(v); m != n || e != err || !bytes.Equal(v.out.Bytes(), w.out.Bytes()) {
						t.Fatalf("step %d: %s: short WriteTo = %d, %v; want %d, %v", step, names[k], m, e, n, err)
					}
				}
			case 7:
				want.Reset()
				for _, b := range got {
					b.Reset()
				}
			case 8:
				n := int(o.byte()) * 64
				want.Grow(n)
				for k, b := range got {
					b.Grow(n)
					if b.Cap()-b.Len() < n {
						t.Fatalf("step %d: %s: Grow(%d) left room %d", step, names[k], n, b.Cap()-b.Len())
					}
				}
			case 9:
				n := int(o.byte()) % (want.Len() + 1)
				want.Truncate(n)
				for _, b := range got {
					b.Truncate(n)
				}
			case 10:
				i := int64(o.uint64())
				want.Write(strconv.AppendInt(nil, i, 10))
				for _, b := range got {
					b.AppendInt(i)
				}
			case 11:
				u := o.uint64()
				want.Write(strconv.AppendUint(nil, u, 10))
				for _, b := range got {
					b.AppendUint(u)
				}
			case 12:
				x := o.uint64()
				fl := float64frombits(x)
				fm := "befgxEGX"[o.byte()%8]
				prec := int(int8(o.byte())) % 40
				bits := 32 + 32*int(o.byte()%2)
				want.Write(strconv.AppendFloat(nil, fl, fm, prec, bits))
				for _, b := range got {
					b.AppendFloat(fl, fm, prec, bits)
				}
			case 13:
				v := o.byte()%2 == 0
				want.Write(strconv.AppendBool(nil, v))
				for _, b := range got {
					b.AppendBool(v)
				}
			case 14:
				s := string(o.chunk())
				want.Write(strconv.AppendQuote(nil, s))
				for _, b := range got {
					b.AppendQuote(s)
				}
			case 15:
				tm := time.Unix(int64(o.uint64()%(1<<40)), 0).UTC()
				layouts := []string{time.RFC3339, time.RFC3339Nano, time.Kitchen, time.RFC1123Z, "Monday, January 2 2006 MST", ""}
				layout := layouts[int(o.byte())%len(layouts)]
				want.Write(tm.AppendFormat(nil, layout))
				for _, b := range got {
					b.AppendTime(tm, layout)
				}
			case 16:
				// Give the pooled Buffer back and take another: empty.
				pool.Put(pooled)
				pooled = pool.Get()
				got[1] = pooled
				want.Reset()
				zero.Reset()
			case 17:
				// Append into the unused capacity and Write the result.
				s := string(o.chunk())
				want.Write(strconv.AppendQuote(want.AvailableBuffer(), s))
				for k, b := range got {
					if c := b.AvailableBuffer(); len(c) != 0 || cap(c) != b.Cap()-b.Len() {
						t.Fatalf("step %d: %s: AvailableBuffer has len %d, cap %d; want 0, %d", step, names[k], len(c), cap(c), b.Cap()-b.Len())
					}
					b.Write(strconv.AppendQuote(b.AvailableBuffer(), s))
				}
			case 18:
				// Write a part of the buffer's own bytes into it, as
				// bytes.Buffer allows: a growth must not give their array
				// back before they are copied.
				i := int(o.byte()) % (want.Len() + 1)
				if want.Len() > maxSelfLen {
					break // each such op may double the buffer
				}
				want.Write(want.Bytes()[i:])
				for _, b := range got {
					b.Write(b.Bytes()[i:])
				}
			case 19:
				// ReadFrom a reader over the buffer's own bytes, in small
				// reads: the array it reads must outlive the growths.
				i := int(o.byte()) % (want.Len() + 1)
				if want.Len() > maxSelfLen {
					break
				}
				part := bytes.Clone(want.Bytes()[i:])
				want.Write(part)
				for k, b := range got {
					if n, err := b.ReadFrom(iotest.HalfReader(bytes.NewReader(b.Bytes()[i:]))); n != int64(len(part)) || err != nil {
						t.Fatalf("step %d: %s: ReadFrom of its own bytes = %d, %v; want %d, nil", step, names[k], n, err, len(part))
					}
				}
			}
			for k, b := range got {
				if b.Len() != want.Len() || !bytes.Equal(b.Bytes(), want.Bytes()) {
					t.Fatalf("step %d (op %d): %s holds %d bytes %.40q, bytes.Buffer %d bytes %.40q",
						step, op, names[k], b.Len(), b.Bytes(), want.Len(), want.Bytes())
				}
				if b.String() != want.String() {
					t.Fatalf("step %d: %s: String differs", step, names[k])
				}
			}
		}
	})
}
