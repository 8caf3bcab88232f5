package popular

import (
	"sync"
	"sync/atomic"
)

// A packetBuffer is reference-counted, as quic-go v0.65.0's
// (buffer_pool.go): Split takes a reference, and it goes back to the pool
// only when the count reaches zero. A packet and its Clone share it.
type packetBuffer struct {
	Data     []byte
	refCount int
}

var bufferPool = sync.Pool{New: func() any { return &packetBuffer{Data: make([]byte, 0, 1452)} }}

func getPacketBuffer() *packetBuffer {
	b := bufferPool.Get().(*packetBuffer)
	b.refCount = 1
	b.Data = b.Data[:0]
	return b
}

func (b *packetBuffer) Split() { b.refCount++ }

func (b *packetBuffer) Decrement() {
	b.refCount--
	if b.refCount < 0 {
		panic("negative packetBuffer refCount")
	}
}

func (b *packetBuffer) MaybeRelease() { // want MaybeRelease:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	if b.refCount == 0 {
		b.putBack()
	}
}

func (b *packetBuffer) Release() { // want Release:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	b.Decrement()
	if b.refCount != 0 {
		panic("packetBuffer refCount not zero")
	}
	b.putBack()
}

func (b *packetBuffer) putBack() { // want putBack:`releases`
	if cap(b.Data) == 1452 {
		bufferPool.Put(b)
	}
}

type receivedPacket struct {
	data   []byte
	buffer *packetBuffer
}

func (p *receivedPacket) Clone() *receivedPacket {
	return &receivedPacket{data: p.data, buffer: p.buffer}
}

var queue []*receivedPacket

// handleCoalesced splits the buffer for each part it queues, then drops
// its own reference: quic-go's connection.go handlePacket.
func handleCoalesced(p receivedPacket, parts int) {
	for i := 0; i < parts; i++ {
		p.buffer.Split()
		queue = append(queue, p.Clone())
	}
	p.buffer.MaybeRelease()
}

func dropQueued() {
	for _, p := range queue {
		p.buffer.Decrement()
		p.buffer.MaybeRelease()
	}
	queue = nil
}

func sendReset(p receivedPacket) {
	defer p.buffer.Release()
	_ = len(p.data)
}

func serverDrop(p receivedPacket) {
	if len(p.data) == 0 {
		p.buffer.Release()
		return
	}
	queue = append(queue, p.Clone())
}

// An atomically counted buffer: the Put waits for the last reference.
type shared struct {
	refs atomic.Int32
	n    int32
	b    []byte
}

var sharedPool = sync.Pool{New: func() any { return new(shared) }}

func (s *shared) retain() { s.refs.Add(1) }

func (s *shared) release() { // want release:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	if s.refs.Add(-1) == 0 {
		sharedPool.Put(s)
	}
}

func (s *shared) retainOld() { atomic.AddInt32(&s.n, 1) }

func (s *shared) releaseOld() { // want releaseOld:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	if atomic.AddInt32(&s.n, -1) == 0 {
		sharedPool.Put(s)
	}
}

type frame struct{ s *shared }

func (f *frame) close() { f.s.release() }

func fanOut(s *shared, n int) []*frame { // want fanOut:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	var out []*frame
	for i := 0; i < n; i++ {
		s.retain()
		out = append(out, &frame{s: s})
	}
	s.release()
	return out
}

func fanOutOld(s *shared) *frame { // want fanOutOld:`releases\(put=\[\], close=\[\], unref=\[0\]\)`
	s.retainOld()
	f := &frame{s: s}
	s.releaseOld()
	return f
}

// An atomically counted value taken and dropped in one function is given
// back: no leak.
func countedLocal() int {
	s := sharedPool.Get().(*shared)
	s.refs.Store(1)
	n := len(s.b)
	s.release()
	return n
}

// Look-alike: a plain int that is only ever counted down is no reference
// count, and a field's value handed to another field that is Put is still
// the double Put of CVE-2023-45286.
type plainBuf struct {
	left int
	buf  *packetBuffer
}

type body struct{ buf *packetBuffer }

func (b *body) Close() { plainPut(b.buf) }

func plainPut(p *packetBuffer) { // want plainPut:`releases`
	bufferPool.Put(p)
}

func (r *plainBuf) send() *body {
	return &body{buf: r.buf}
}

func (r *plainBuf) retry() {
	r.left--
	if r.left == 0 {
		plainPut(r.buf) // want `r.buf is Put twice: the value in field buf was handed to field buf`
	}
}
