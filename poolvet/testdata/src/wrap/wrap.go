// Package wrap holds pool wrappers of the shapes real modules use, so that
// package lifetimes calls them across a package boundary, through facts.
package wrap

import (
	"errors"
	"sync"
)

// Buffers is a pool type with Get and Put methods over sync.Pools of size
// classes, that allocates what it cannot serve (syncthing's lib/protocol
// bufferPool, go-sstables' pool.BufferPool).
type Buffers struct {
	pools [2]sync.Pool
}

// Get returns a slice of len size, pooled when size fits a class.
func (p *Buffers) Get(size int) []byte { // want Get:`releases\(put=\[\], close=\[\], takes=\[0\]\)` Get:`borrows\(\[0\]\)`
	if size > 1<<16 {
		return make([]byte, size)
	}
	i := 0
	if size > 4<<10 {
		i = 1
	}
	if v := p.pools[i].Get(); v != nil {
		bs := *v.(*[]byte)
		return bs[:size]
	}
	return make([]byte, size, 4<<(10+2*i))
}

// Put gives bs back, unless it is too large to keep.
func (p *Buffers) Put(bs []byte) { // want Put:`releases\(put=\[1\], close=\[\]\)` Put:`borrows\(\[0\]\)`
	if cap(bs) > 1<<16 {
		return
	}
	i := 0
	if cap(bs) > 4<<10 {
		i = 1
	}
	p.pools[i].Put(&bs)
}

var small, large sync.Pool

// GetBlock returns an empty block of at least sz bytes: from a pool of
// arrays when one fits, else new (nats-server's getMsgBlockBuf).
func GetBlock(sz int) []byte { // want GetBlock:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	switch {
	case sz <= 1<<10:
		return small.Get().(*[1 << 10]byte)[:0]
	case sz <= 1<<16:
		return large.Get().(*[1 << 16]byte)[:0]
	default:
		return make([]byte, 0, sz)
	}
}

// RecycleBlock gives back a block GetBlock returned, by its capacity.
func RecycleBlock(buf []byte) { // want RecycleBlock:`releases\(put=\[0\], close=\[\]\)`
	switch cap(buf) {
	case 1 << 10:
		small.Put((*[1 << 10]byte)(buf[:1<<10]))
	case 1 << 16:
		large.Put((*[1 << 16]byte)(buf[:1<<16]))
	}
}

// Request is a pooled request, taken by NewRequest and given back by its
// Recycle method (nats-server's waitingRequest).
type Request struct {
	Reply string
	N     int
}

var requests = sync.Pool{New: func() any { return new(Request) }}

// NewRequest takes a request from the pool.
func NewRequest(reply string, n int) *Request { // want NewRequest:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	r := requests.Get().(*Request)
	r.Reply, r.N = reply, n
	return r
}

// Recycle gives r back.
func (r *Request) Recycle() { // want Recycle:`releases\(put=\[0\], close=\[\]\)`
	*r = Request{}
	requests.Put(r)
}

// Boxes is a pool type that keeps its slices in boxes, a pool of boxes
// and pools of full ones by size (libp2p's go-buffer-pool BufferPool,
// which go-sstables uses).
type Boxes struct {
	pools [2]sync.Pool
	ptrs  sync.Pool
}

type box struct{ buf []byte }

// Get returns a slice of len size, from a box when one is pooled.
func (p *Boxes) Get(size int) []byte { // want Get:`releases\(put=\[\], close=\[\], takes=\[0\]\)` Get:`borrows\(\[0\]\)`
	if size > 1<<16 {
		return make([]byte, size)
	}
	i := 0
	if size > 4<<10 {
		i = 1
	}
	if v := p.pools[i].Get(); v != nil {
		bp := v.(*box)
		buf := bp.buf[:size]
		bp.buf = nil
		p.ptrs.Put(v)
		return buf
	}
	return make([]byte, size, 4<<(10+2*i))
}

// Put gives buf back in a box, unless it is too large to keep.
func (p *Boxes) Put(buf []byte) { // want Put:`releases\(put=\[1\], close=\[\]\)` Put:`borrows\(\[0\]\)`
	if cap(buf) == 0 || cap(buf) > 1<<16 {
		return
	}
	i := 0
	if cap(buf) > 4<<10 {
		i = 1
	}
	var bp *box
	if v := p.ptrs.Get(); v != nil {
		bp = v.(*box)
	} else {
		bp = new(box)
	}
	bp.buf = buf
	p.pools[i].Put(bp)
}

// Find returns a pooled request, or nil when ok is false (nats-server's
// raft loadEntry).
func Find(reply string, ok bool) *Request { // want Find:`releases\(put=\[\], close=\[\], takes=\[0\]\)`
	if !ok {
		return nil
	}
	return NewRequest(reply, 1)
}

// Owner delivers pooled messages that point back to it: the message is
// pooled, not the owner (nats-server's consumer and jsPubMsg).
type Owner struct{ Sent int }

type message struct {
	owner *Owner
	body  string
}

var messages = sync.Pool{New: func() any { return new(message) }}

// Deliver sends one pooled message that points back to o.
func (o *Owner) Deliver(body string) {
	m := messages.Get().(*message)
	m.owner, m.body = o, body
	m.owner.Sent++
	*m = message{}
	messages.Put(m)
}

// Cache keeps items in memory, or in a store that serializes them; an item
// goes back to the pool only in the second case (fiber's cache manager).
type Cache struct {
	pool   sync.Pool
	store  map[string][]byte
	memory map[string]*Item
}

// Item is a cached item.
type Item struct{ Body []byte }

// Release gives it back unless the cache keeps items in memory: a branch
// on the cache's own state, not a drop.
func (m *Cache) Release(it *Item) { // want Release:`borrows\(\[0\]\)`
	if m.store == nil {
		return
	}
	it.Body = nil
	m.pool.Put(it)
}

// Set stores it: serialized and given back, or kept in memory.
func (m *Cache) Set(key string, it *Item) {
	if m.store != nil {
		m.store[key] = append([]byte(nil), it.Body...)
		m.Release(it)
	} else {
		m.memory[key] = it
	}
}

// Header is a message header, decoded from a buffer that a caller owns
// (syncthing's protocol.Header, whose generated Unmarshal only reads it).
type Header struct{ Type, Size int }

// Unmarshal borrows its receiver and b: it reads b and keeps nothing.
func (h *Header) Unmarshal(b []byte) error { // want Unmarshal:`borrows\(\[0 1\]\)`
	if len(b) < 2 {
		return errShort
	}
	h.Type, h.Size = int(b[0]), int(b[1])
	return nil
}

// Retain decodes b like Unmarshal, and keeps it: the caller gives it up.
func (h *Header) Retain(b []byte) error { // want Retain:`borrows\(\[0\]\)`
	if err := h.Unmarshal(b); err != nil {
		return err
	}
	retained = b
	return nil
}

var retained []byte

var errShort = errors.New("short header")
