package popular

import (
	"bytes"
	"errors"
	"sync"
)

// True findings in the corpus that poolvet must keep.

var kbufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer { return kbufPool.Get().(*bytes.Buffer) }

func releaseBuffer(b *bytes.Buffer) { // want releaseBuffer:`releases`
	b.Reset()
	kbufPool.Put(b)
}

var errClose = errors.New("close")

// kafka-go v0.4.51 recordbatch.go compressRecordBatch: the named result
// is returned after the buffer was given back (latent: callers drop it on
// error).
func compressRecordBatch(fail bool) (compressed *bytes.Buffer, err error) {
	compressed = acquireBuffer()
	compressed.WriteString("x")
	if fail {
		err = errClose
		releaseBuffer(compressed)
		return // want `compressed is used after Put`
	}
	return
}

var udpPool = sync.Pool{New: func() any { return make([]byte, 512) }}

// miekg/dns v1.1.73 server.go: a []byte Put into a sync.Pool.
func readUDP() int {
	m := udpPool.Get().([]byte)
	n := len(m)
	udpPool.Put(m) // want `non-pointer \[\]byte`
	return n
}
