// Package missed holds misuse that poolvet does not find yet: it counts
// against recall in TestRecall and is not part of the strict suites.
package missed

import (
	"bytes"

	"github.com/reuse-go/reuse"
)

var bufs = reuse.Pool[*bytes.Buffer]{Reset: (*bytes.Buffer).Reset}

type conn struct{ buf *bytes.Buffer }

// A field stored through another pointer to the same struct is not seen
// as the same field's store: poolvet keys fields by the value holding them.
func (c *conn) missedFieldAlias(d *conn) {
	bufs.Put(c.buf)
	d.buf.WriteString("x") // want `used after Put`
}

type box struct{ b *bytes.Buffer }

var boxes reuse.Pool[*box]

// A pointer loaded from a field of a pooled struct may be its own part or a
// shared object (a server, a connection); poolvet does not count it as the
// pooled memory, so returning it past a deferred Put goes unreported.
func missedPointerField() *bytes.Buffer {
	x := boxes.Get()
	defer boxes.Put(x)
	return x.b // want `returned`
}
