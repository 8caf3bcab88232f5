// Package bufiopool is a stub of the real package's API.
package bufiopool

import (
	"bufio"
	"io"
)

type Reader struct{ *bufio.Reader }

func NewReader(r io.Reader, size int) *Reader { return &Reader{bufio.NewReaderSize(r, size)} }
func (r *Reader) Close() error                { return nil }

type Writer struct{ *bufio.Writer }

func NewWriter(w io.Writer, size int) *Writer { return &Writer{bufio.NewWriterSize(w, size)} }
func (w *Writer) Close() error                { return nil }
