package popular

import "sync"

// A pipe gives back its head blocks as they are read: golang.org/x/net
// v0.62.0's quic/pipe.go discardBefore. The field is loaded afresh on each
// iteration, after the store that moved it on.
type pipebuf struct {
	off  int64
	b    []byte
	next *pipebuf
}

var pipePool = sync.Pool{New: func() any { return new(pipebuf) }}

func (pb *pipebuf) end() int64 { return pb.off + int64(len(pb.b)) }

func (pb *pipebuf) recycle() { // want recycle:`releases`
	pb.b = pb.b[:0]
	pb.next = nil
	pipePool.Put(pb)
}

type pipe struct {
	head, tail *pipebuf
	start      int64
}

func (p *pipe) discardBefore(off int64) {
	for p.head != nil && p.head.end() < off {
		head := p.head
		p.head = p.head.next
		head.recycle()
	}
	if p.head == nil {
		p.tail = nil
	}
	p.start = off
}

// Look-alike: the block given back is read after its Put.
func (p *pipe) discardBad(off int64) {
	for p.head != nil && p.head.end() < off {
		head := p.head
		head.recycle()
		p.head = head.next // want `head is used after Put`
	}
}
