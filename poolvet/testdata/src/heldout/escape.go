package heldout

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"sync"
)

var readerPool = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// --- bad: pooled memory that outlives the loan ---------------------------

// From openyurtio/openyurt#2774: the response keeps the pooled reader, which
// the deferred Put gives back at return.
func badResponseKeepsPooledReader(r io.Reader) (*http.Response, error) {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer readerPool.Put(br)
	return http.ReadResponse(br, nil) // want `returned`
}

// From darkweak/storages#47: a reader over the pooled bytes, returned while
// the deferred Put gives them back.
func badReaderOverPooledBytes(s string) io.Reader {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString(s)
	return bytes.NewReader(b.Bytes()) // want `returned`
}

type collector struct {
	parts [][]byte
	last  []byte
}

// The pooled bytes appended into the receiver's slice, then Put.
func (c *collector) badAppendIntoField(s string) {
	b := bufs.Get()
	b.WriteString(s)
	c.parts = append(c.parts, b.Bytes()) // want `escapes|stored`
	bufs.Put(b)
}

// From xxddpac/go-flow#6: the pooled value sent to a consumer, then Put.
func badSendThenPut(ch chan<- *bytes.Buffer, s string) {
	b := bufs.Get()
	b.WriteString(s)
	ch <- b // want `escapes|sent`
	bufs.Put(b)
}

// The pooled bytes stored in a caller's map, then Put.
func badMapStoreThenPut(m map[string][]byte, k, s string) {
	b := bufs.Get()
	b.WriteString(s)
	m[k] = b.Bytes() // want `escapes|stored`
	bufs.Put(b)
}

// From mozilla-services/go-syncstorage#148: returned inside a struct while
// a deferred Put gives the buffer back.
func badStructReturnedPastDefer(s string) result {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString(s)
	return result{data: b.Bytes(), n: b.Len()} // want `returned`
}

// --- clean -----------------------------------------------------------------

func cleanMapStoreCopy(m map[string][]byte, k, s string) {
	b := bufs.Get()
	b.WriteString(s)
	m[k] = bytes.Clone(b.Bytes())
	bufs.Put(b)
}

// Ownership goes to the caller: nothing gives it back here.
func cleanReturnOwnership(s string) *bytes.Buffer {
	b := bufs.Get()
	b.WriteString(s)
	return b
}

// Ownership goes to the receiver of the channel.
func cleanSendOwnership(ch chan<- *bytes.Buffer, s string) {
	b := bufs.Get()
	b.WriteString(s)
	ch <- b
}

func cleanReaderOverCopy(s string) io.Reader {
	b := bufs.Get()
	defer bufs.Put(b)
	b.WriteString(s)
	return bytes.NewReader(bytes.Clone(b.Bytes()))
}

func cleanResponseReadFully(r io.Reader) ([]byte, error) {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer readerPool.Put(br)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (c *collector) cleanAppendCopy(s string) {
	b := bufs.Get()
	b.WriteString(s)
	c.parts = append(c.parts, bytes.Clone(b.Bytes()))
	c.last = append(c.last[:0], b.Bytes()...)
	bufs.Put(b)
}
