package main

import (
	"bytes"
	"io"
	"sync"

	pool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"
	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/bytebuf"
)

// impl is one pool as a user drives it. local returns, for one goroutine,
// the function that gets a buffer for its in-flight slot k (libp2p's Buffer
// is a value each goroutine keeps per slot; the others ignore k). bytes and
// writeTo are the two ways an op hands its bytes on.
type impl[B any] struct {
	local   func() func(k int) B
	write   func(B, []byte)
	bytes   func(B) []byte
	writeTo func(B, io.Writer)
	capOf   func(B) int
	put     func(B)
}

// The functions that build an impl (syncPool, bytebufferpoolPeer, ...) are
// marked noinline so that their closures compile the same in userview and
// in BenchmarkOp: where the compiler inlined one into BenchmarkOp's table,
// it did not inline the pool's own methods into the closures it copied.

// capped is the capacity above which the capped sync.Pool drops a buffer at
// Put, as fmt does (golang/go#23199).
const capped = 64 << 10

// syncPool is a sync.Pool of *bytes.Buffer; with drop, it drops buffers
// over capped bytes at Put.
//
//go:noinline
func syncPool(drop bool) impl[*bytes.Buffer] {
	p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
	return impl[*bytes.Buffer]{
		local: func() func(int) *bytes.Buffer {
			return func(int) *bytes.Buffer { b := p.Get().(*bytes.Buffer); b.Reset(); return b }
		},
		write:   func(b *bytes.Buffer, d []byte) { b.Write(d) },
		bytes:   (*bytes.Buffer).Bytes,
		writeTo: func(b *bytes.Buffer, w io.Writer) { b.WriteTo(w) },
		capOf:   (*bytes.Buffer).Cap,
		put: func(b *bytes.Buffer) {
			if drop && b.Cap() > capped {
				return
			}
			p.Put(b)
		},
	}
}

//go:noinline
func bytebufferpoolPeer() impl[*bytebufferpool.ByteBuffer] {
	p := new(bytebufferpool.Pool)
	return impl[*bytebufferpool.ByteBuffer]{
		local: func() func(int) *bytebufferpool.ByteBuffer {
			return func(int) *bytebufferpool.ByteBuffer { return p.Get() }
		},
		write:   func(b *bytebufferpool.ByteBuffer, d []byte) { b.Write(d) },
		bytes:   (*bytebufferpool.ByteBuffer).Bytes,
		writeTo: func(b *bytebufferpool.ByteBuffer, w io.Writer) { b.WriteTo(w) },
		capOf:   func(b *bytebufferpool.ByteBuffer) int { return cap(b.B) },
		put:     p.Put,
	}
}

//go:noinline
func libp2pPeer() impl[*pool.Buffer] {
	p := new(pool.BufferPool)
	return impl[*pool.Buffer]{
		local: func() func(int) *pool.Buffer {
			slots := make([]pool.Buffer, maxInFlight)
			for k := range slots {
				slots[k].Pool = p
			}
			return func(k int) *pool.Buffer { return &slots[k] }
		},
		write:   func(b *pool.Buffer, d []byte) { b.Write(d) },
		bytes:   (*pool.Buffer).Bytes,
		writeTo: func(b *pool.Buffer, w io.Writer) { b.WriteTo(w) },
		capOf:   (*pool.Buffer).Cap,
		put:     (*pool.Buffer).Reset, // gives the array back to the pool
	}
}

//go:noinline
func zapPeer() impl[*buffer.Buffer] {
	p := buffer.NewPool()
	return impl[*buffer.Buffer]{
		local:   func() func(int) *buffer.Buffer { return func(int) *buffer.Buffer { return p.Get() } },
		write:   func(b *buffer.Buffer, d []byte) { b.Write(d) },
		bytes:   (*buffer.Buffer).Bytes,
		writeTo: func(b *buffer.Buffer, w io.Writer) { w.Write(b.Bytes()) }, // zap's Buffer has no WriteTo
		capOf:   (*buffer.Buffer).Cap,
		put:     (*buffer.Buffer).Free,
	}
}

//go:noinline
func bytebufPeer() impl[*bytebuf.Buffer] {
	p := new(bytebuf.Pool)
	return impl[*bytebuf.Buffer]{
		local:   func() func(int) *bytebuf.Buffer { return func(int) *bytebuf.Buffer { return p.Get() } },
		write:   func(b *bytebuf.Buffer, d []byte) { b.Write(d) },
		bytes:   (*bytebuf.Buffer).Bytes,
		writeTo: func(b *bytebuf.Buffer, w io.Writer) { b.WriteTo(w) },
		capOf:   (*bytebuf.Buffer).Cap,
		put:     p.Put,
	}
}

// reference is the peer every other is compared with; twin is a second
// pool of the same code, run with -twin as an A/A control: the rows it
// "dominates" are verdicts that the machine's noise alone gives.
const (
	reference = "bytebuf"
	twin      = "bytebuf-twin"
)

// peer is one pool's name and the measurement of a fresh one.
type peer struct {
	name    string
	measure func(run) result
}

// peers are the pools a user would pick, in table order, bytebuf last.
var peers = []peer{
	{"syncpool", func(r run) result { return measure(r, func() impl[*bytes.Buffer] { return syncPool(false) }) }},
	{"syncpool-64K", func(r run) result { return measure(r, func() impl[*bytes.Buffer] { return syncPool(true) }) }},
	{"bytebufferpool", func(r run) result { return measure(r, bytebufferpoolPeer) }},
	{"libp2p", func(r run) result { return measure(r, libp2pPeer) }},
	{"zap", func(r run) result { return measure(r, zapPeer) }},
	{reference, bytebufPass},
}

// bytebufPass measures r on a fresh bytebuf pool.
func bytebufPass(r run) result { return measure(r, bytebufPeer) }

// twinPeer is the A/A control, outside peers (see twin).
var twinPeer = peer{twin, bytebufPass}
