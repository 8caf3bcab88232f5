package heldout

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/reuse-go/reuse"
)

var errBad = io.ErrUnexpectedEOF

// --- bad: missing Reset ----------------------------------------------------

// A pool held through a pointer.
var ptrBufs = &sync.Pool{New: func() any { return new(bytes.Buffer) }}

func badResetPtrPool(w io.Writer, s string) error {
	b := ptrBufs.Get().(*bytes.Buffer)
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	ptrBufs.Put(b) // want `without Reset`
	return err
}

var deferBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// A deferred Put, no Reset anywhere.
func badResetDeferred(w io.Writer, s string) error {
	b := deferBufs.Get().(*bytes.Buffer)
	defer deferBufs.Put(b) // want `without Reset`
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	return err
}

var errPathBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Reset runs on the error path only; the success path puts it back dirty.
func badResetErrorPathOnly(w io.Writer, s string) error {
	b := errPathBufs.Get().(*bytes.Buffer)
	b.WriteString(s)
	if _, err := w.Write(b.Bytes()); err != nil {
		b.Reset()
		errPathBufs.Put(b)
		return err
	}
	errPathBufs.Put(b) // want `without Reset`
	return nil
}

// A reuse.Pool without a Reset hook, whose users put values back dirty.
var dirtyBufs = reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}

func badResetReusePool(w io.Writer, s string) error {
	b := dirtyBufs.Get()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	dirtyBufs.Put(b) // want `without Reset`
	return err
}

var dirtyBuilders = reuse.Pool[*strings.Builder]{New: func() *strings.Builder { return new(strings.Builder) }}

func badResetReusePoolDefer(parts []string) string {
	sb := dirtyBuilders.Get()
	defer dirtyBuilders.Put(sb) // want `without Reset`
	for _, p := range parts {
		sb.WriteString(p)
	}
	return sb.String()
}

type encoder struct {
	bufs *sync.Pool
}

// A pool in a pointer field.
func (e *encoder) badResetFieldPtr(w io.Writer, s string) error {
	b := e.bufs.Get().(*bytes.Buffer)
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	e.bufs.Put(b) // want `without Reset`
	return err
}

// --- clean -----------------------------------------------------------------

var cleanBufsA = &sync.Pool{New: func() any { return new(bytes.Buffer) }}

func cleanResetAfterGetPtr(w io.Writer, s string) error {
	b := cleanBufsA.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	cleanBufsA.Put(b)
	return err
}

var cleanBufsB = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func cleanResetInDeferredClosure(w io.Writer, s string) error {
	b := cleanBufsB.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		cleanBufsB.Put(b)
	}()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	return err
}

var cleanBufsC = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func cleanResetBothPaths(w io.Writer, s string) error {
	b := cleanBufsC.Get().(*bytes.Buffer)
	b.WriteString(s)
	if _, err := w.Write(b.Bytes()); err != nil {
		b.Reset()
		cleanBufsC.Put(b)
		return err
	}
	b.Reset()
	cleanBufsC.Put(b)
	return nil
}

var hookBufs = reuse.Pool[*bytes.Buffer]{
	New:   func() *bytes.Buffer { return new(bytes.Buffer) },
	Reset: func(b *bytes.Buffer) { b.Reset() },
}

func cleanReusePoolWithHook(w io.Writer, s string) error {
	b := hookBufs.Get()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	hookBufs.Put(b)
	return err
}

var noHookBufs = reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}

func cleanReusePoolResetByUser(w io.Writer, s string) error {
	b := noHookBufs.Get()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	b.Reset()
	noHookBufs.Put(b)
	return err
}

// Readers have no Reset(): there is nothing to forget.
var readers = sync.Pool{New: func() any { return new(bytes.Reader) }}

func cleanReaderPool(p []byte) int {
	r := readers.Get().(*bytes.Reader)
	r.Reset(p)
	n := r.Len()
	readers.Put(r)
	return n
}

// SharedBufs is exported: its users elsewhere may reset.
var SharedBufs = &sync.Pool{New: func() any { return new(bytes.Buffer) }}

func cleanExportedPool(w io.Writer, s string) error {
	b := SharedBufs.Get().(*bytes.Buffer)
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	SharedBufs.Put(b)
	return err
}

var hookedLater reuse.Pool[*bytes.Buffer]

func init() {
	hookedLater.Reset = (*bytes.Buffer).Reset
}

func cleanReusePoolHookSetInInit(s string) int {
	b := hookedLater.Get()
	b.WriteString(s)
	n := b.Len()
	hookedLater.Put(b)
	return n
}
