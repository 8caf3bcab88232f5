package main

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkDirect is userview's serial op (4 buffers in flight, a length
// written in the shape's pieces, the bytes handed on through Bytes at even
// ops and WriteTo at odd ones, Put, Get) written out for three pools as a
// user writes it: every call to the pool direct, none through impl's func
// values. Beside BenchmarkOp it shows what the harness adds to each pool:
// bytebuf's Put goes through a method value there (one call more than a
// user's pool.Put(b)), zap's Free through a method expression (none).
func BenchmarkDirect(b *testing.B) {
	for _, s := range shapes.All() {
		b.Run(s.Name+"/syncpool", func(b *testing.B) { directSyncPool(b, s) })
		b.Run(s.Name+"/zap", func(b *testing.B) { directZap(b, s) })
		b.Run(s.Name+"/"+reference, func(b *testing.B) { directBytebuf(b, s) })
	}
}

// directRun runs op for one run of s's lengths unmeasured, then b.N times.
func directRun(b *testing.B, s shapes.Shape, op func(i int)) {
	for i := range shapes.Len {
		op(i)
	}
	b.ResetTimer()
	for i := range b.N {
		op(i)
	}
}

func directSyncPool(b *testing.B, s shapes.Shape) {
	p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
	var sk sink
	var w io.Writer = &sk
	var fl [4]*bytes.Buffer
	for k := range fl {
		fl[k] = p.Get().(*bytes.Buffer)
	}
	directRun(b, s, func(i int) {
		buf := fl[i%4]
		for m := s.Lengths[i%shapes.Len]; m > 0; m -= s.Piece {
			buf.Write(payload[:min(m, s.Piece)])
		}
		if i%2 == 0 {
			sk.take(buf.Bytes())
		} else {
			buf.WriteTo(w)
		}
		p.Put(buf)
		buf = p.Get().(*bytes.Buffer)
		buf.Reset()
		fl[i%4] = buf
	})
}

func directZap(b *testing.B, s shapes.Shape) {
	p := buffer.NewPool()
	var sk sink
	var w io.Writer = &sk
	var fl [4]*buffer.Buffer
	for k := range fl {
		fl[k] = p.Get()
	}
	directRun(b, s, func(i int) {
		buf := fl[i%4]
		for m := s.Lengths[i%shapes.Len]; m > 0; m -= s.Piece {
			buf.Write(payload[:min(m, s.Piece)])
		}
		if i%2 == 0 {
			sk.take(buf.Bytes())
		} else {
			w.Write(buf.Bytes()) // zap's Buffer has no WriteTo
		}
		buf.Free()
		fl[i%4] = p.Get()
	})
}

func directBytebuf(b *testing.B, s shapes.Shape) {
	var p bytebuf.Pool
	var sk sink
	var w io.Writer = &sk
	var fl [4]*bytebuf.Buffer
	for k := range fl {
		fl[k] = p.Get()
	}
	directRun(b, s, func(i int) {
		buf := fl[i%4]
		for m := s.Lengths[i%shapes.Len]; m > 0; m -= s.Piece {
			buf.Write(payload[:min(m, s.Piece)])
		}
		if i%2 == 0 {
			sk.take(buf.Bytes())
		} else {
			buf.WriteTo(w)
		}
		p.Put(buf)
		fl[i%4] = p.Get()
	})
}
