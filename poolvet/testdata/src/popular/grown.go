package popular

import (
	"bytes"
	"io"
	"sync"
)

const frameSize = 512

var frames = sync.Pool{New: func() any { return new([frameSize]byte) }}

func frameGet() []byte {
	return frames.Get().(*[frameSize]byte)[:0]
}

func framePut(b []byte) { // want framePut:`releases`
	switch cap(b) {
	case frameSize:
		frames.Put((*[frameSize]byte)(b[0:frameSize]))
	default:
		// not a frame of the pool: dropped
	}
}

// packFrames writes into a buffer over a pooled seed, and gives the seed
// back once the buffer has grown past it: then cap(b) > cap(seed), so b
// is a new array and its uses after the Put read that one. nats-server
// v2.15.3 websocket.go (wsCollapsePtoNB).
func packFrames(w io.Writer, parts [][]byte, out [][]byte) ([][]byte, error) {
	seed := frameGet()
	buf := bytes.NewBuffer(seed)
	for _, p := range parts {
		buf.Write(p)
	}
	b := buf.Bytes()
	if cap(b) > cap(seed) {
		framePut(seed)
	}
	p := b[:len(b)-1]
	if len(p) > frameSize {
		out = append(out, p[:1], p)
		return out, nil
	}
	_, err := w.Write(p)
	framePut(b)
	return out, err
}

// Look-alikes: a Put with no comparison, or one that allows an equal
// capacity (the same array), still leaves b reading the seed.
func packFramesPut(w io.Writer, parts [][]byte) error {
	seed := frameGet()
	buf := bytes.NewBuffer(seed)
	for _, p := range parts {
		buf.Write(p)
	}
	b := buf.Bytes()
	framePut(seed)
	p := b[:len(b)-1]
	_, err := w.Write(p) // want `used after Put`
	return err
}

func packFramesEqual(w io.Writer, parts [][]byte) error {
	seed := frameGet()
	buf := bytes.NewBuffer(seed)
	for _, p := range parts {
		buf.Write(p)
	}
	b := buf.Bytes()
	if cap(b) >= cap(seed) {
		framePut(seed)
	}
	p := b[:len(b)-1]
	_, err := w.Write(p) // want `used after Put`
	return err
}
