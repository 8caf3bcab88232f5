package bytebuf_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkDebugCost measures one Get, small write and Put. Run it with and
// without -tags reusedebug: the ratio to the impl=syncpool sibling is the
// debug build's cost (a poison pass over the buffer's capacity on each Put
// and a check on each Get, besides the bookkeeping).
func BenchmarkDebugCost(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 1024)) }}
		b.ReportAllocs()
		for b.Loop() {
			buf := p.Get().(*bytes.Buffer)
			buf.WriteString("hello")
			buf.Reset()
			p.Put(buf)
		}
	})
	b.Run("impl=bytebuf", func(b *testing.B) {
		var p bytebuf.Pool
		b.ReportAllocs()
		for b.Loop() {
			buf := p.Get()
			buf.WriteString("hello")
			p.Put(buf)
		}
	})
}
