package bytebuf_test

import (
	"fmt"
	"io"

	"github.com/reuse-go/reuse/bytebuf"
)

// Buffer implements the io interfaces of the write side of bytes.Buffer.
var (
	_ io.Writer       = (*bytebuf.Buffer)(nil)
	_ io.StringWriter = (*bytebuf.Buffer)(nil)
	_ io.ByteWriter   = (*bytebuf.Buffer)(nil)
	_ io.ReaderFrom   = (*bytebuf.Buffer)(nil)
	_ io.WriterTo     = (*bytebuf.Buffer)(nil)
	_ fmt.Stringer    = (*bytebuf.Buffer)(nil)
)
