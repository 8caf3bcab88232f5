// Package lifetimes holds misuse whose Get and Put are in other functions
// than the misuse, in other packages (wrap, bytebufferpool): the checks
// follow them through facts. Each bad case names the real bug it reduces
// (poolvet/testdata/bugs.tsv); each has a clean look-alike below it.
package lifetimes

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/valyala/bytebufferpool"
	"wrap"
)

var bufs wrap.Buffers

var errTooLong = errors.New("too long")

// readHeader is syncthing's rawConnection.readHeader before v1.15.0: a
// buffer of a pool type's Get is not given back when the read fails.
func readHeader(r io.Reader, n int) (hdr [4]byte, err error) {
	buf := bufs.Get(n) // want `value taken from the pool is not given back on the path to the return`
	if _, err := io.ReadFull(r, buf); err != nil {
		return hdr, err
	}
	copy(hdr[:], buf)
	bufs.Put(buf)
	return hdr, nil
}

func readHeaderClean(r io.Reader, n int) (hdr [4]byte, err error) {
	buf := bufs.Get(n)
	if _, err := io.ReadFull(r, buf); err != nil {
		bufs.Put(buf)
		return hdr, err
	}
	copy(hdr[:], buf)
	bufs.Put(buf)
	return hdr, nil
}

// readHeaderUnmarshal is syncthing's rawConnection.readHeader before
// v1.15.0 in full: the buffer goes to hdr.Unmarshal, which only borrows it
// (a fact across the package boundary), and is not given back when that
// fails.
func readHeaderUnmarshal(r io.Reader, n int) (wrap.Header, error) {
	buf := bufs.Get(n) // want `not given back`
	if _, err := io.ReadFull(r, buf); err != nil {
		bufs.Put(buf)
		return wrap.Header{}, err
	}
	var hdr wrap.Header
	if err := hdr.Unmarshal(buf); err != nil {
		return wrap.Header{}, err
	}
	bufs.Put(buf)
	return hdr, nil
}

// readHeaderUnmarshalClean is the fix, v1.15.0.
func readHeaderUnmarshalClean(r io.Reader, n int) (wrap.Header, error) {
	buf := bufs.Get(n)
	if _, err := io.ReadFull(r, buf); err != nil {
		bufs.Put(buf)
		return wrap.Header{}, err
	}
	var hdr wrap.Header
	err := hdr.Unmarshal(buf)
	bufs.Put(buf)
	return hdr, err
}

// readHeaderRetained hands the buffer to Retain, which keeps it: not a
// leak.
func readHeaderRetained(r io.Reader, n int) (wrap.Header, error) {
	buf := bufs.Get(n)
	if _, err := io.ReadFull(r, buf); err != nil {
		bufs.Put(buf)
		return wrap.Header{}, err
	}
	var hdr wrap.Header
	if err := hdr.Retain(buf); err != nil {
		return wrap.Header{}, err
	}
	return hdr, nil
}

// compact is nats-server's fileStore.compact before v2.14.3: a block of a
// Get wrapper that may allocate is not recycled on an error path.
func compact(r io.Reader) (int, error) {
	buf := wrap.GetBlock(512) // want `not given back`
	n, err := r.Read(buf[:cap(buf)])
	if err != nil {
		return 0, err
	}
	wrap.RecycleBlock(buf)
	return n, nil
}

func compactClean(r io.Reader) (int, error) {
	buf := wrap.GetBlock(512)
	defer wrap.RecycleBlock(buf)
	return r.Read(buf[:cap(buf)])
}

// nextRequest is nats-server's consumer.processNextMsgRequest before
// v2.10.23: a request from a constructor that takes it from a pool is not
// recycled (a method that Puts its receiver) when the queue is full.
func nextRequest(reply string, queued, limit int) error {
	wr := wrap.NewRequest(reply, 1) // want `not given back`
	if queued >= limit {
		return errTooLong
	}
	wr.N += queued
	wr.Recycle()
	return nil
}

func nextRequestClean(reply string, queued, limit int) error {
	wr := wrap.NewRequest(reply, 1)
	if queued >= limit {
		wr.Recycle()
		return errTooLong
	}
	wr.N += queued
	wr.Recycle()
	return nil
}

// writeFrame leaks a bytebufferpool buffer on an error path: Put drops
// buffers larger than the pool calibrated, either way the caller no
// longer owns it.
func writeFrame(w io.Writer, p []byte) error { // want writeFrame:`borrows\(\[1\]\)`
	b := bytebufferpool.Get() // want `not given back`
	if len(p) > 1<<20 {
		return errTooLong
	}
	b.Write(p)
	_, err := w.Write(b.B)
	bytebufferpool.Put(b)
	return err
}

func writeFrameClean(w io.Writer, p []byte) error { // want writeFrameClean:`borrows\(\[1\]\)`
	b := bytebufferpool.Get()
	defer bytebufferpool.Put(b)
	if len(p) > 1<<20 {
		return errTooLong
	}
	b.Write(p)
	_, err := w.Write(b.B)
	return err
}

// marshal is a function literal assigned to a package-level variable
// (issue 59): it returns the bytes of a buffer its deferred Put gives back.
var marshal = func(s string) ([]byte, error) {
	b := bytebufferpool.Get()
	defer bytebufferpool.Put(b)
	b.Write([]byte(s))
	return b.B, nil // want `memory of b is returned, but the deferred Put`
}

var marshalClean = func(s string) ([]byte, error) {
	b := bytebufferpool.Get()
	defer bytebufferpool.Put(b)
	b.Write([]byte(s))
	return bytes.Clone(b.B), nil
}

var local = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuf() *bytes.Buffer { // want getBuf:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	b := local.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuf(b *bytes.Buffer) { local.Put(b) } // want putBuf:`releases\(put=\[0\], close=\[\]\)`

// encode is git-spice's graphQLTransport.RoundTrip before v0.20.0, and
// projectdiscovery/utils' ResponseChain.FullResponseBytes before v0.7.2:
// the buffer of a Get helper is read by what is returned after the
// deferred Put helper gave it back.
var encode = func(s string) io.Reader {
	b := getBuf()
	defer putBuf(b)
	b.WriteString(s)
	return bytes.NewReader(b.Bytes()) // want `returned, but the deferred Put`
}

var encodeClean = func(s string) io.Reader {
	b := getBuf()
	defer putBuf(b)
	b.WriteString(s)
	return bytes.NewReader(bytes.Clone(b.Bytes()))
}

// encodeNamed is encode declared as a function.
func encodeNamed(s string) io.Reader {
	b := getBuf()
	defer putBuf(b)
	b.WriteString(s)
	return bytes.NewReader(b.Bytes()) // want `returned, but the deferred Put`
}

// encodeBytes is a function literal assigned to a package-level variable
// that uses a sync.Pool directly.
var encodeBytes = func(s string) []byte {
	b := local.Get().(*bytes.Buffer)
	defer local.Put(b)
	b.WriteString(s)
	return b.Bytes() // want `returned, but the deferred Put`
}

var boxes wrap.Boxes

// readRecord is go-sstables' readNextV1 before v1.5.0: a buffer of a pool
// that boxes its slices is not given back when the read fails.
func readRecord(r io.Reader, n int) (hdr [4]byte, err error) {
	buf := boxes.Get(n) // want `not given back`
	if _, err := io.ReadFull(r, buf); err != nil {
		return hdr, err
	}
	copy(hdr[:], buf)
	boxes.Put(buf)
	return hdr, nil
}

func readRecordClean(r io.Reader, n int) (hdr [4]byte, err error) {
	buf := boxes.Get(n)
	defer boxes.Put(buf)
	if _, err := io.ReadFull(r, buf); err != nil {
		return hdr, err
	}
	copy(hdr[:], buf)
	return hdr, nil
}

// findClean is nats-server's raft snapshot: a Get wrapper returns nil when
// it has nothing, and the nil branch has nothing to give back.
func findClean(reply string, ok bool) int {
	if wr := wrap.Find(reply, ok); wr != nil {
		n := wr.N
		wr.Recycle()
		return n
	}
	return 0
}

// deliverClean: Deliver Puts a message that points back to the owner,
// which is not pooled with it.
func deliverClean(o *wrap.Owner) int { // want deliverClean:`borrows\(\[0\]\)`
	o.Deliver("a")
	o.Deliver("b")
	return o.Sent
}

// cacheClean is fiber's cache middleware: Set gives the item back or keeps
// it, as the cache's state decides, and Release after it is then no
// double Put.
func cacheClean(m *wrap.Cache, key string, it *wrap.Item) { // want cacheClean:`borrows\(\[0\]\)`
	m.Set(key, it)
	m.Release(it)
}

// Event is a pooled log event whose methods return it, as a fluent
// builder's do (zerolog's Event).
type Event struct{ buf []byte }

var events = sync.Pool{New: func() any { return new(Event) }}

func newEvent(enabled bool) *Event { // want newEvent:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	if !enabled {
		return nil
	}
	return events.Get().(*Event)
}

// Str appends s and returns e.
func (e *Event) Str(s string) *Event {
	if e != nil {
		e.buf = append(e.buf, s...)
	}
	return e
}

// Msg ends the event and gives it back.
func (e *Event) Msg(s string) { // want Msg:`releases\(put=\[0\], close=\[\]\)`
	if e == nil {
		return
	}
	e.buf = e.buf[:0]
	events.Put(e)
}

// logClean is zerolog's Logger.Print: the event goes on through Str, whose
// result Msg gives back.
func logClean(enabled bool, s string) {
	e := newEvent(enabled)
	e.Str(s).Msg("done")
}

// unmarshaler is a message type of the program: its Unmarshal, an
// interface method, may keep the buffer it is handed.
type unmarshaler interface{ Unmarshal(b []byte) error }

// readMessage is syncthing's rawConnection.readMessageAfterHeader before
// v1.15.0: the buffer goes to msg.Unmarshal, which may keep it, but the
// read that fails before it returns without giving the buffer back.
func readMessage(r io.Reader, n int, msg unmarshaler) (unmarshaler, error) {
	buf := bufs.Get(n) // want `not given back on the path to the return`
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	if err := msg.Unmarshal(buf); err != nil {
		return nil, err
	}
	bufs.Put(buf)
	return msg, nil
}

// readMessageClean is the fix, v1.15.0: each return before Unmarshal gives
// the buffer back; the one after it may leave it to msg.
func readMessageClean(r io.Reader, n int, msg unmarshaler) (unmarshaler, error) {
	buf := bufs.Get(n)
	if _, err := io.ReadFull(r, buf); err != nil {
		bufs.Put(buf)
		return nil, err
	}
	if err := msg.Unmarshal(buf); err != nil {
		return nil, err
	}
	bufs.Put(buf)
	return msg, nil
}

// decompressor is a compressor of the program (go-sstables'
// compressor.CompressionI): its method may keep either buffer.
type decompressor interface {
	DecompressWithBuf(src, dst []byte) ([]byte, error)
}

// allocRecord is go-sstables' allocateRecordBufferPooled: a Get wrapper,
// with the size to read beside the buffer, of a pool type of another
// package (libp2p's go-buffer-pool): no function of this one gives a
// buffer back.
func allocRecord(n int) (int, []byte) { // want allocRecord:`releases\(put=\[\], close=\[\], takes=\[1\]\)`
	return n, bufs.Get(n)
}

// readCompressed is go-sstables' FileReader.ReadNext before v1.5.0: the
// record buffer goes to DecompressWithBuf, which may keep it, after the
// error returns that lose it.
func readCompressed(r io.Reader, n int, d decompressor) ([]byte, error) {
	want, buf := allocRecord(n) // want `not given back on the path to the return`
	got, err := io.ReadFull(r, buf)
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, errTooLong
	}
	tmp := bufs.Get(n)
	out, err := d.DecompressWithBuf(buf, tmp)
	if err != nil {
		return nil, err
	}
	rec := make([]byte, len(out))
	copy(rec, out)
	bufs.Put(buf)
	bufs.Put(tmp)
	return rec, nil
}

// readCompressedClean is the fix, v1.5.0: deferred Puts.
func readCompressedClean(r io.Reader, n int, d decompressor) ([]byte, error) {
	want, buf := allocRecord(n)
	defer bufs.Put(buf)
	got, err := io.ReadFull(r, buf)
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, errTooLong
	}
	tmp := bufs.Get(n)
	defer bufs.Put(tmp)
	out, err := d.DecompressWithBuf(buf, tmp)
	if err != nil {
		return nil, err
	}
	rec := make([]byte, len(out))
	copy(rec, out)
	return rec, nil
}

// sink may keep what it is handed.
type sink interface {
	Drop(b []byte)
	Keep(b []byte)
}

// queueClean hands the buffer to a method that may keep it on the path to
// each return: nothing is lost.
func queueClean(q sink, r io.Reader, n int) error {
	buf := bufs.Get(n)
	if _, err := io.ReadFull(r, buf); err != nil {
		q.Drop(buf)
		return err
	}
	if n > 1 {
		q.Keep(buf)
	} else {
		q.Drop(buf)
	}
	return nil
}
