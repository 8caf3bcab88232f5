package codec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/toolarge"
)

// The sentinels are shared by every format so that errors.Is works the same
// way whichever package produced the error.
var (
	// ErrFormat is wrapped by New when a Format is invalid.
	ErrFormat = errors.New("invalid Format")
	// ErrTooLarge is wrapped by Decompress when the output would exceed the
	// caller's limit. It wraps reuse.ErrTooLarge.
	ErrTooLarge error = toolarge.Sentinel("decompressed data exceeds the limit", reuse.ErrTooLarge)
	// ErrCorrupt is wrapped, beside the underlying cause, when compressed
	// input is corrupt or truncated.
	ErrCorrupt = errors.New("corrupt or truncated compressed data")
	// ErrClosed is returned by a Writer or Reader used after Close.
	ErrClosed = errors.New("use after Close")
	// ErrLevel is wrapped when a compression level is out of range.
	ErrLevel = errors.New("invalid compression level")
)

// Compressor is the part of a compressing writer that a Codec uses:
// *gzip.Writer, *zlib.Writer and *flate.Writer have these methods.
type Compressor interface {
	// Write compresses p, Flush writes what is pending, Close finishes the
	// stream; none of them closes the underlying writer.
	io.WriteCloser
	Flush() error
	// Reset discards all state and starts a new stream, written to w, at
	// the compressor's level.
	Reset(w io.Writer)
}

// Decompressor is the part of a decompressing reader that a Codec uses:
// *gzip.Reader has these methods; readers whose Reset takes more arguments,
// such as zlib's and flate's, are adapted with a small struct.
type Decompressor interface {
	io.Reader
	// Reset starts decompressing r, reading the stream's header if it has
	// one. It must discard all state from the stream before: if it does not,
	// set Format.SingleUse.
	Reset(r io.Reader) error
}

// byteReader is flate.Reader: a source from which the decompressors read
// exactly what they need, without wrapping it in a bufio.Reader.
type byteReader interface {
	io.Reader
	io.ByteReader
}

// Format describes one compressed format to New.
type Format struct {
	// Name is the package's name, used as the prefix of errors and panic
	// messages. Required.
	Name string
	// MinLevel and MaxLevel bound the valid levels (at most 256 of them);
	// each level has a pool of its own.
	MinLevel, MaxLevel int
	// DefaultLevel is the level that level -1 (DefaultCompression) means; it
	// shares that level's pool. 0 when -1 has a pool of its own.
	DefaultLevel int
	// NewCompressor returns a compressor writing to w at a level already
	// checked to be valid. Required; it must not fail for a valid level
	// (a failure panics, as an internal error of the format).
	NewCompressor func(w io.Writer, level int) (Compressor, error)
	// NewDecompressor returns a decompressor that is Reset before every use.
	// Required.
	NewDecompressor func() Decompressor
	// SingleUse is set when the decompressor's Reset keeps state from the
	// stream before, so that a reused decompressor does not behave exactly
	// as a new one. The codec then takes a new decompressor for every
	// stream and drops it afterwards; it still pools its own buffers.
	SingleUse bool
	// Park is a valid, empty compressed stream. A decompressor that has
	// read from a caller's reader is Reset onto it when released, so that it
	// no longer references the caller's reader. Required unless SingleUse;
	// New checks that it decompresses to nothing.
	Park []byte
	// SizeHint, if non-nil, guesses the decompressed size of src from its
	// content (gzip's trailer). The guess is untrusted: it only sizes the
	// first allocation, clamped to the limit.
	SizeHint func(src []byte) int
}

// Codec is a set of pools for one Format: one of compressors per level, one
// of decompressors. It is safe for use by multiple goroutines. Make one with
// New, once, in a package-level variable: the methods of a nil or zero
// Codec panic.
type Codec struct {
	f       Format
	writers []reuse.Pool[*wentry] // index level - f.MinLevel
	readers reuse.Pool[*rentry]
}

// wentry is a pooled compressor with the sink it always writes to. The
// compressor never references a caller's writer or slice directly: only the
// sink does, and the sink is cleared when the entry is put back.
type wentry struct {
	c    Compressor
	sink sink
}

// sink appends to buf when w is nil, and writes to w otherwise.
type sink struct {
	w   io.Writer
	buf []byte
}

func (s *sink) Write(p []byte) (int, error) {
	if s.w != nil {
		return s.w.Write(p)
	}
	s.buf = append(s.buf, p...)
	return len(p), nil
}

// WriteString is Write for a string, so that a compressor that writes its
// header's strings with io.WriteString, as compress/gzip does, does not
// copy them when w has a WriteString of its own.
func (s *sink) WriteString(p string) (int, error) {
	if s.w != nil {
		return io.WriteString(s.w, p)
	}
	s.buf = append(s.buf, p...)
	return len(p), nil
}

// rentry is a pooled decompressor with the sources it may read from.
type rentry struct {
	d   Decompressor  // nil between uses when the Format is SingleUse
	src bytes.Reader  // Decompress's input, and Park when parking
	br  *bufio.Reader // a streaming caller's reader that is not a byteReader
	one [1]byte       // probes for more output at the limit
}

// New returns the pools for f, or an error wrapping ErrFormat when f is
// invalid.
func New(f Format) (*Codec, error) {
	if err := check(f); err != nil {
		return nil, fmt.Errorf("codec: New: %w: %s", ErrFormat, err)
	}
	c := &Codec{f: f, writers: make([]reuse.Pool[*wentry], f.MaxLevel-f.MinLevel+1)}
	for i := range c.writers {
		level := f.MinLevel + i
		c.writers[i].New = func() *wentry {
			e := new(wentry)
			zw, err := f.NewCompressor(&e.sink, level)
			if err != nil {
				panic(fmt.Sprintf("%s: internal error: level %d: %v", f.Name, level, err))
			}
			e.c = zw
			return e
		}
	}
	c.readers.New = func() *rentry {
		if f.SingleUse {
			return new(rentry)
		}
		return &rentry{d: f.NewDecompressor()}
	}
	if debug.Enabled {
		// Reports name the handles the callers hold, not the entries.
		for i := range c.writers {
			debug.Name(&c.writers[i], handleName(f.Name, "Writer"))
		}
		debug.Name(&c.readers, handleName(f.Name, "Reader"))
	}
	return c, nil
}

// handleName is how a report names a handle of the format: "gzpool.Writer"
// for a package's Writer, "khttp gzip Writer" for a Name that is not one.
func handleName(name, handle string) string {
	if strings.ContainsAny(name, " ") {
		return name + " " + handle
	}
	return name + "." + handle
}

// Must returns c, and panics if err is not nil. It is for package-level
// variables: var pools = codec.Must(codec.New(codec.Format{...})).
func Must(c *Codec, err error) *Codec {
	if err != nil {
		panic(err.Error())
	}
	return c
}

// check reports what is wrong with f.
func check(f Format) error {
	switch {
	case f.Name == "":
		return errors.New("no Name")
	case f.MinLevel > f.MaxLevel || uint(f.MaxLevel)-uint(f.MinLevel) >= 256:
		// With MinLevel <= MaxLevel, the span is exact in uint: in int,
		// MinInt to MaxInt overflows to -1 and passed.
		return fmt.Errorf("%s: levels %d to %d", f.Name, f.MinLevel, f.MaxLevel)
	case f.DefaultLevel != 0 && (f.DefaultLevel < f.MinLevel || f.DefaultLevel > f.MaxLevel):
		return fmt.Errorf("%s: DefaultLevel %d outside %d to %d", f.Name, f.DefaultLevel, f.MinLevel, f.MaxLevel)
	case f.NewCompressor == nil || f.NewDecompressor == nil:
		return fmt.Errorf("%s: no NewCompressor or NewDecompressor", f.Name)
	case f.SingleUse:
		return nil
	}
	d := f.NewDecompressor()
	if d == nil {
		return fmt.Errorf("%s: NewDecompressor returned nil", f.Name)
	}
	err := d.Reset(bytes.NewReader(f.Park))
	if err == nil {
		var b [1]byte
		var n int
		n, err = readOne(d, b[:])
		if n > 0 {
			return fmt.Errorf("%s: Park decompresses to more than nothing", f.Name)
		}
		if err == io.EOF {
			return nil
		}
	}
	return fmt.Errorf("%s: Park is not an empty stream: %v", f.Name, err)
}

// made reports whether New made c: not a nil or zero Codec, for New makes
// at least one pool of writers.
func (c *Codec) made() bool { return c != nil && len(c.writers) > 0 }

// pool returns the pool for level, or an error wrapping ErrLevel that
// names op, unless op is "".
func (c *Codec) pool(op string, level int) (*reuse.Pool[*wentry], error) {
	if level < c.f.MinLevel || level > c.f.MaxLevel {
		name := c.f.Name
		if op != "" {
			name += ": " + op
		}
		return nil, fmt.Errorf("%s: level %d: %w (want %d to %d)", name, level, ErrLevel, c.f.MinLevel, c.f.MaxLevel)
	}
	if level == -1 && c.f.DefaultLevel != 0 {
		level = c.f.DefaultLevel
	}
	return &c.writers[level-c.f.MinLevel], nil
}

// getWriter takes a compressor from p and points it at its own sink.
func getWriter(p *reuse.Pool[*wentry]) *wentry {
	e := p.Get()
	e.c.Reset(&e.sink)
	return e
}

// putWriter clears e's references to the caller's memory and gives it back.
func putWriter(p *reuse.Pool[*wentry], e *wentry) {
	e.sink = sink{}
	p.Put(e)
}

// getReader takes a decompressor from the pool, or a new one if the Format
// is SingleUse. The caller Resets it.
func (c *Codec) getReader() *rentry {
	e := c.readers.Get()
	if c.f.SingleUse {
		e.d = c.f.NewDecompressor()
	}
	return e
}

// putReader clears e's references to the caller's memory and gives it back.
// A decompressor that may reference a caller's reader is parked first; a
// SingleUse one is dropped.
func (c *Codec) putReader(e *rentry, park bool) {
	if c.f.SingleUse {
		e.d = nil
		if e.br != nil {
			e.br.Reset(nil)
		}
	} else if park {
		e.src.Reset(c.f.Park)
		if err := e.d.Reset(&e.src); err != nil {
			panic(c.f.Name + ": internal error: parking a decompressor: " + err.Error())
		}
		if e.br != nil {
			e.br.Reset(nil)
		}
	}
	e.src.Reset(nil)
	c.readers.Put(e)
}

// Compress appends the compressed form of src to dst.
func (c *Codec) Compress(dst, src []byte, level int) ([]byte, error) {
	if !c.made() {
		panic("codec: Codec.Compress: nil or zero Codec: make one with New")
	}
	p, err := c.pool("Compress", level)
	if err != nil {
		return dst, err
	}
	e := getWriter(p)
	e.sink.buf = dst
	_, err = e.c.Write(src)
	if err == nil {
		err = e.c.Close()
	}
	out := e.sink.buf
	putWriter(p, e)
	if err != nil { // the sink cannot fail; kept for safety
		return dst, fmt.Errorf("%s: Compress: %w", c.f.Name, err)
	}
	return out, nil
}

// Decompress appends the decompressed form of src to dst, producing at most
// limit bytes. On error it returns dst unchanged in length.
func (c *Codec) Decompress(dst, src []byte, limit int64) ([]byte, error) {
	if !c.made() {
		panic("codec: Codec.Decompress: nil or zero Codec: make one with New")
	}
	if limit < 0 {
		panic(c.f.Name + ": Decompress: negative limit")
	}
	e := c.getReader()
	e.src.Reset(src)
	// No slice holds more than math.MaxInt bytes: a larger limit is that.
	out, err := c.decompress(e, dst, src, int(min(limit, math.MaxInt)))
	c.putReader(e, false)
	if err == errTooLarge {
		err = fmt.Errorf("%s: Decompress: %w (limit %d bytes)", c.f.Name, ErrTooLarge, limit)
	}
	return out, err
}

func (c *Codec) decompress(e *rentry, dst, src []byte, limit int) ([]byte, error) {
	if err := e.d.Reset(&e.src); err != nil {
		return dst, c.corrupt(err)
	}
	start := len(dst)
	out := dst
	for {
		n := len(out) - start // produced so far, never above limit
		if len(out) == cap(out) || n == limit {
			// Full: read one byte before growing, so that output that ends
			// exactly at the capacity or at the limit costs no allocation.
			m, err := readOne(e.d, e.one[:])
			if m == 0 {
				if err == io.EOF {
					return out, nil
				}
				return dst, c.corrupt(err)
			}
			if n == limit {
				return dst, errTooLarge
			}
			grown, ok := c.grow(out, n, limit, src)
			if !ok {
				return c.measure(e, dst, src, limit, n+1, out[start:cap(out)])
			}
			out = append(grown, e.one[0])
			continue
		}
		end := len(out) + min(cap(out)-len(out), limit-n)
		m, err := e.d.Read(out[len(out):end])
		out = out[:len(out)+m]
		if err == io.EOF {
			// gzip reports io.EOF only after the last member of a
			// multistream input, with every checksum verified.
			return out, nil
		}
		if err != nil {
			return dst, c.corrupt(err)
		}
	}
}

// readOne reads one byte into b, retrying reads that return nothing.
func readOne(r io.Reader, b []byte) (int, error) {
	for range 100 {
		m, err := r.Read(b)
		if m > 0 || err != nil {
			return m, err
		}
	}
	return 0, io.ErrNoProgress
}

// maxRatio bounds what deflate can expand to: a 258-byte match costs at
// least 2 bits, so no stream expands more than 1032 times. A size hint above
// it is a lie and is not believed.
const maxRatio = 1032

// minGuess is what Decompress may always allocate on a guess.
const minGuess = 32 << 10

// grow makes room in out, which holds n bytes of output after its original
// length, for more output: the size hint on the first growth, then doubling,
// never more than the limit allows. It reports false, leaving out as it is,
// when doubling would pass an eighth of the limit (or minGuess): what it
// allocates on guesses then stays under a quarter of the limit, and the
// caller measures the output before it allocates more.
func (c *Codec) grow(out []byte, n, limit int, src []byte) ([]byte, bool) {
	if n == 0 && c.f.SizeHint != nil {
		// gzip's trailer: right for every valid single-member stream, and
		// a lie only in streams that fail their checksum.
		if h := c.f.SizeHint(src); h > 0 && h/maxRatio <= len(src) {
			return slices.Grow(out, min(h, limit)), true
		}
	}
	extra := min(max(n, 512), limit-n)
	if n > 0 && n+extra > max(limit/8, minGuess) {
		return out, false
	}
	return slices.Grow(out, extra), true
}

// measure is Decompress for output too large to guess at. It decompresses
// the rest of the stream into scratch, which the output so far (n bytes)
// filled, only to count it; then, if it fits the limit, it decompresses the
// whole stream again into a buffer of exactly its size. That costs a second
// pass over the stream, and bounds what Decompress holds: a quarter of the
// limit in guesses, the output, and the decompressor.
func (c *Codec) measure(e *rentry, dst, src []byte, limit, n int, scratch []byte) ([]byte, error) {
	for {
		m, err := e.d.Read(scratch[:min(len(scratch), limit-n+1)])
		n += m
		if n > limit {
			return dst, errTooLarge
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return dst, c.corrupt(err)
		}
	}
	start := len(dst)
	out := slices.Grow(dst, n)[:start+n]
	if c.f.SingleUse {
		e.d = c.f.NewDecompressor()
	}
	e.src.Reset(src)
	if err := e.d.Reset(&e.src); err != nil {
		return dst, c.corrupt(err)
	}
	if _, err := io.ReadFull(e.d, out[start:]); err != nil {
		return dst, c.corrupt(err)
	}
	if m, err := readOne(e.d, e.one[:]); m != 0 || err != io.EOF {
		return dst, c.corrupt(errors.New("internal error: a second pass gives more output than the first"))
	}
	return out, nil
}

// errTooLarge is what decompress returns past the limit, for Decompress to
// wrap with the limit the caller gave.
var errTooLarge = errors.New("limit reached")

func (c *Codec) corrupt(err error) error {
	if errors.Is(err, reuse.ErrTooLarge) {
		return fmt.Errorf("%s: %w", c.f.Name, err) // a decompressor that refuses what it cannot hold
	}
	return fmt.Errorf("%s: %w: %w", c.f.Name, ErrCorrupt, err)
}

// Writer is a streaming compressor handle. Its zero value is closed.
type Writer struct {
	p *reuse.Pool[*wentry]
	e *wentry // nil once closed
}

// OpenWriter points w at a pooled compressor writing to dst.
func (c *Codec) OpenWriter(w *Writer, dst io.Writer, level int) error {
	if !c.made() {
		panic("codec: Codec.OpenWriter: nil or zero Codec: make one with New")
	}
	return c.openWriter("OpenWriter", w, dst, level, nil)
}

// OpenWriterWith is OpenWriter that first calls set, if it is not nil, with
// the pooled compressor, Reset and not yet written to, to set up this one
// stream, as setting a gzip.Writer's Header does. set must not keep the
// compressor, and what it stores in it must not change until the stream
// ends: a pooled compressor keeps it until its next Reset. If set returns an
// error, the compressor goes back to the pool, w is left closed, and the
// error is returned.
func (c *Codec) OpenWriterWith(w *Writer, dst io.Writer, level int, set func(Compressor) error) error {
	if !c.made() {
		panic("codec: Codec.OpenWriterWith: nil or zero Codec: make one with New")
	}
	return c.openWriter("OpenWriterWith", w, dst, level, set)
}

// openWriter is OpenWriterWith, called as op. A bad level's error names no
// method: the wrapping packages' NewWriter calls OpenWriter too.
func (c *Codec) openWriter(op string, w *Writer, dst io.Writer, level int, set func(Compressor) error) error {
	if dst == nil {
		panic(c.f.Name + ": " + op + ": nil io.Writer")
	}
	p, err := c.pool("", level)
	if err != nil {
		return err
	}
	e := getWriter(p)
	if set != nil {
		if err := set(e.c); err != nil {
			putWriter(p, e)
			*w = Writer{}
			return err
		}
	}
	e.sink.w = dst
	*w = Writer{p: p, e: e}
	return nil
}

// Write compresses p.
func (w *Writer) Write(p []byte) (int, error) {
	if w == nil {
		panic("codec: Writer.Write: nil *Writer")
	}
	if w.e == nil {
		return 0, ErrClosed
	}
	return w.e.c.Write(p)
}

// Flush writes any pending compressed data.
func (w *Writer) Flush() error {
	if w == nil {
		panic("codec: Writer.Flush: nil *Writer")
	}
	if w.e == nil {
		return ErrClosed
	}
	return w.e.c.Flush()
}

// Close finishes the stream and gives the compressor back.
func (w *Writer) Close() error {
	if w == nil {
		panic("codec: Writer.Close: nil *Writer")
	}
	if w.e == nil {
		return ErrClosed
	}
	e := w.e
	w.e = nil
	err := e.c.Close()
	putWriter(w.p, e)
	return err
}

// Reader is a streaming decompressor handle. Its zero value is closed.
type Reader struct {
	c *Codec
	e *rentry // nil once closed
}

// OpenReader points r at a pooled decompressor reading from src.
func (c *Codec) OpenReader(r *Reader, src io.Reader) error {
	if !c.made() {
		panic("codec: Codec.OpenReader: nil or zero Codec: make one with New")
	}
	if src == nil {
		panic(c.f.Name + ": OpenReader: nil io.Reader")
	}
	e := c.getReader()
	var from io.Reader = src
	if _, ok := src.(byteReader); !ok {
		if e.br == nil {
			e.br = bufio.NewReader(src)
		} else {
			e.br.Reset(src)
		}
		from = e.br
	}
	if err := e.d.Reset(from); err != nil {
		c.putReader(e, true)
		return c.corrupt(err)
	}
	*r = Reader{c: c, e: e}
	return nil
}

// Read decompresses into p.
func (r *Reader) Read(p []byte) (int, error) {
	if r == nil {
		panic("codec: Reader.Read: nil *Reader")
	}
	if r.e == nil {
		return 0, ErrClosed
	}
	return r.e.d.Read(p)
}

// Close gives the decompressor back.
func (r *Reader) Close() error {
	if r == nil {
		panic("codec: Reader.Close: nil *Reader")
	}
	if r.e == nil {
		return ErrClosed
	}
	e := r.e
	r.e = nil
	r.c.putReader(e, true)
	return nil
}
