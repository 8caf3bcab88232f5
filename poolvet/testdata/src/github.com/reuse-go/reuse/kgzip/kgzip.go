// Package kgzip is a stub of the real package's API.
package kgzip

import "io"

type Writer struct{ w io.Writer }

func NewWriter(w io.Writer, level int) (*Writer, error) { return &Writer{w}, nil }
func (w *Writer) Write(p []byte) (int, error)           { return len(p), nil }
func (w *Writer) Flush() error                          { return nil }
func (w *Writer) Close() error                          { return nil }

type Reader struct{ r io.Reader }

func NewReader(r io.Reader) (*Reader, error) { return &Reader{r}, nil }
func (r *Reader) Read(p []byte) (int, error) { return 0, io.EOF }
func (r *Reader) Close() error               { return nil }
