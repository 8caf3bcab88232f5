package bytebuf

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
)

// Buffer is a variable-sized buffer of bytes for building output, with the
// write side of bytes.Buffer: Write, WriteString, WriteByte, WriteRune and
// ReadFrom append to it, WriteTo drains it, and after any sequence of these
// calls its contents equal those of a bytes.Buffer given the same calls. It
// has no read side (Read, Next, UnreadByte): use bytes.Buffer for that.
//
// The Append methods format values straight into the buffer with strconv and
// time.Time.AppendFormat, without allocating when the buffer has room.
//
// The zero value is an empty buffer ready to use, which grows like a slice.
// A Buffer taken from a Pool grows through that Pool, so that large arrays
// are reused too. A Buffer is not safe for concurrent use, and must not be
// copied after first use.
type Buffer struct {
	// The fields Get, Write and Put use come first: the Buffer is 56
	// bytes, within one cache line.
	buf []byte
	// pool is the Pool that made the Buffer, nil for a Buffer made otherwise.
	pool *Pool
	// home is the slot of the P the Buffer was last Put on or got from: it
	// keeps the array of slots alive, with the sizing state and class pools.
	home *slot
	// peak is the largest length the buffer held before its last Reset,
	// Truncate or WriteTo since it left the pool, so that a Buffer emptied
	// before Put (the bytebufferpool and fasttemplate idiom, or WriteTo)
	// still tells its pool how much was written into it.
	peak int
	// arr is what the Pool knows of buf's array; it moves with the array.
	arr *array
}

// empty empties the buffer, remembering the length it had in peak.
func (b *Buffer) empty() {
	b.peak = max(b.peak, len(b.buf))
	b.buf = b.buf[:0]
}

// Len returns the number of bytes in the buffer.
func (b *Buffer) Len() int { debug.Live(unsafe.Pointer(b)); return len(b.buf) } // methods read via Len or Bytes: the check after Put

// Cap returns the capacity of the buffer's underlying array.
func (b *Buffer) Cap() int { debug.Live(unsafe.Pointer(b)); return cap(b.buf) }

// AvailableBuffer returns an empty slice with the buffer's unused capacity,
// like bytes.Buffer.AvailableBuffer: append to it and pass the result to
// Write right away, and the bytes are written in place, without a copy, as
// append-style APIs (strconv.Append*, hex.AppendEncode, utf8.AppendRune,
// encoders that take a dst []byte and return it extended) do:
//
//	buf.Grow(n) // optional: room for what follows, so the append does not reallocate
//	buf.Write(strconv.AppendInt(buf.AvailableBuffer(), x, 10))
//
// The slice aliases the buffer, and is valid only until its next change.
func (b *Buffer) AvailableBuffer() []byte { debug.Live(unsafe.Pointer(b)); return b.buf[len(b.buf):] }

// Bytes returns the contents of the buffer. The slice aliases the buffer: it
// is valid only until the buffer's next change (Write, Append, Reset,
// Truncate, Grow, ReadFrom, WriteTo), and never after its Put to a Pool.
func (b *Buffer) Bytes() []byte { debug.Live(unsafe.Pointer(b)); return b.buf }

// String returns the contents of the buffer as a string, a copy. If b is nil
// it returns "<nil>", like bytes.Buffer.
func (b *Buffer) String() string {
	if b == nil {
		return "<nil>"
	}
	return string(b.Bytes())
}

// Reset empties the buffer and keeps its capacity.
func (b *Buffer) Reset() { debug.Live(unsafe.Pointer(b)); b.empty() }

// Truncate keeps the first n bytes of the buffer. It panics if n is negative
// or greater than Len, like bytes.Buffer.Truncate.
func (b *Buffer) Truncate(n int) {
	if n < 0 || n > b.Len() {
		panic("bytebuf: Buffer.Truncate: truncation out of range")
	}
	b.peak = max(b.peak, len(b.buf))
	b.buf = b.buf[:n]
}

// Grow makes room for at least n more bytes without another allocation. It
// panics if n is negative, like bytes.Buffer.Grow, and when Len()+n bytes
// cannot be allocated (the runtime's "makeslice: cap out of range", or out
// of memory, as for append); it never returns with less room than asked.
func (b *Buffer) Grow(n int) {
	if debug.Enabled { // out of WriteRune's and AppendQuote's inlined Grow
		debug.Live(unsafe.Pointer(b))
	}
	if n < 0 {
		panic("bytebuf: Buffer.Grow: negative count")
	}
	if cap(b.buf)-len(b.buf) < n {
		b.grow(n, nil)
	}
}

// grow makes room for n more bytes, which b lacks. With held, the pool's
// growth keeps b's array in *held while nil (see ReadFrom).
func (b *Buffer) grow(n int, held **Buffer) {
	need := len(b.buf) + n
	if need < len(b.buf) {
		panic("bytebuf: Buffer.Grow: too large")
	}
	if b.pool != nil {
		b.pool.resize(b, need, held)
		return
	}
	b.buf = appendGrow(b.buf, need)
}

// appendGrow returns buf copied into a new array with room for need > cap(buf)
// bytes, at least double as append grows, without overflow near math.MaxInt.
func appendGrow(buf []byte, need int) []byte {
	c := max(need+min(cap(buf), math.MaxInt-need), 64)
	nb := make([]byte, len(buf), c)
	copy(nb, buf)
	return nb
}

// Write appends p to the buffer. It returns len(p) and a nil error.
func (b *Buffer) Write(p []byte) (n int, err error) {
	debug.Live(unsafe.Pointer(b)) // not in write: write must inline, or p escapes (debug build)
	write(b, p, growFor[[]byte])
	return len(p), nil
}

// WriteString appends s to the buffer. It returns len(s) and a nil error.
func (b *Buffer) WriteString(s string) (n int, err error) {
	debug.Live(unsafe.Pointer(b))
	write(b, s, growFor[string])
	return len(s), nil
}

// write appends p to b, or has grow do it when b lacks room. grow is a
// parameter, not a call written out, so that Write and WriteString inline:
// the inliner counts a call to a parameter as cheap
// (internal/perp/PERFORMANCE.md).
func write[S []byte | string](b *Buffer, p S, grow func(*Buffer, S)) {
	if cap(b.buf)-len(b.buf) < len(p) {
		grow(b, p)
		return
	}
	b.buf = append(b.buf, p...)
}

// growFor is write's growth: it makes room in b for p, then appends p. It
// appends a copy of p when p is b's own bytes (b.Write(b.Bytes())): the
// growth hands their array to the pool, where another Get may write it
// before the append reads it.
//
//go:noinline
func growFor[S []byte | string](b *Buffer, p S) {
	if d := *(*uintptr)(unsafe.Pointer(&p)) - uintptr(unsafe.Pointer(unsafe.SliceData(b.buf))); d < uintptr(cap(b.buf)) {
		p = S(append([]byte(nil), p...))
	}
	b.grow(len(p), nil)
	b.buf = append(b.buf, p...)
}

// WriteByte appends c to the buffer. The error is always nil.
func (b *Buffer) WriteByte(c byte) error {
	if debug.Enabled { // a call, even empty, costs WriteByte its inlining
		debug.Live(unsafe.Pointer(b))
	}
	if len(b.buf) == cap(b.buf) {
		b.grow(1, nil)
	}
	b.buf = append(b.buf, c)
	return nil
}

// WriteRune appends the UTF-8 encoding of r to the buffer, or that of
// utf8.RuneError when r is not a valid rune. It returns the number of bytes
// written and a nil error.
func (b *Buffer) WriteRune(r rune) (n int, err error) {
	if uint32(r) < utf8.RuneSelf {
		b.WriteByte(byte(r))
		return 1, nil
	}
	b.Grow(utf8.UTFMax)
	m := len(b.buf)
	b.buf = utf8.AppendRune(b.buf, r)
	return len(b.buf) - m, nil
}

// ReadFrom appends what it reads from r until io.EOF, and returns the number
// of bytes read. io.EOF is not returned as an error; any other error from r
// is, with the bytes read before it kept in the buffer. It panics if r
// returns a negative count, like bytes.Buffer.ReadFrom. As there, r may read
// the buffer's own bytes: b.ReadFrom(bytes.NewReader(b.Bytes())) doubles them.
func (b *Buffer) ReadFrom(r io.Reader) (n int64, err error) {
	var held *Buffer
	hold := &held // b's array stays out of the pool while r may read it (bytes.NewReader(b.Bytes()))
	if b.Len() == 0 {
		hold = nil // nothing to read there
	}
	defer b.pool.giveBack(hold)
	for {
		if cap(b.buf)-len(b.buf) < bytes.MinRead {
			b.grow(bytes.MinRead, hold)
		}
		i := len(b.buf)
		m, e := r.Read(b.buf[i:cap(b.buf)])
		if m < 0 {
			panic("bytebuf: Buffer.ReadFrom: reader returned negative count from Read")
		}
		b.buf = b.buf[:i+m]
		n += int64(m)
		if e == io.EOF {
			return n, nil
		}
		if e != nil {
			return n, e
		}
	}
}

// WriteTo writes the buffer's contents to w and empties the buffer, like
// bytes.Buffer.WriteTo. When w writes less than everything, the unwritten
// bytes stay in the buffer and the error is w's error, or io.ErrShortWrite.
// It panics if w reports writing more than it was given.
func (b *Buffer) WriteTo(w io.Writer) (n int64, err error) {
	if b.Len() > 0 {
		m, e := w.Write(b.buf)
		if uint(m) > uint(len(b.buf)) {
			panic("bytebuf: Buffer.WriteTo: invalid Write count")
		}
		n = int64(m)
		if m != len(b.buf) {
			b.buf = b.buf[:copy(b.buf, b.buf[m:])]
			if e == nil {
				e = io.ErrShortWrite
			}
			return n, e
		}
		err = e
	}
	b.empty()
	return n, err
}

// AppendInt appends the decimal form of i, as strconv.AppendInt. The Append
// methods format into an array on the stack and then write the result, so
// that the buffer grows by exactly what is added; a longer result still works
// (strconv or time allocates it).
func (b *Buffer) AppendInt(i int64) { var tmp [24]byte; b.Write(strconv.AppendInt(tmp[:0], i, 10)) }

// AppendUint appends the decimal form of u, as strconv.AppendUint.
func (b *Buffer) AppendUint(u uint64) { var tmp [24]byte; b.Write(strconv.AppendUint(tmp[:0], u, 10)) }

// AppendFloat appends f formatted as strconv.AppendFloat(dst, f, fmt, prec,
// bitSize) does.
func (b *Buffer) AppendFloat(f float64, fmt byte, prec, bitSize int) {
	var tmp [64]byte
	b.Write(strconv.AppendFloat(tmp[:0], f, fmt, prec, bitSize))
}

// AppendBool appends "true" or "false".
func (b *Buffer) AppendBool(v bool) { b.WriteString(strconv.FormatBool(v)) }

// AppendQuote appends s as a double-quoted Go string literal, as
// strconv.AppendQuote.
func (b *Buffer) AppendQuote(s string) {
	b.Grow(len(s) + 2) // exact unless s needs escapes
	old := cap(b.buf)
	if b.buf = strconv.AppendQuote(b.buf, s); cap(b.buf) != old && b.pool != nil {
		b.pool.recount(b, old) // the append reallocated: count its array instead
	}
}

// AppendTime appends t formatted with layout, as t.AppendFormat.
func (b *Buffer) AppendTime(t time.Time, layout string) {
	var tmp [64]byte
	b.Write(t.AppendFormat(tmp[:0], layout))
}
