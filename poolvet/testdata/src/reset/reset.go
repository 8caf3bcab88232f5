package reset

import (
	"bytes"
	"strings"
	"sync"
)

var noReset = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var builders = sync.Pool{New: func() any { return new(strings.Builder) }}

var resetOnGet = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var resetOnPut = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var resetInHelper = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Exported may be used, and reset, by other packages.
var Exported = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type server struct {
	bufs sync.Pool
}

// --- bad -------------------------------------------------------------------

func badNoReset() string {
	b := noReset.Get().(*bytes.Buffer)
	b.WriteString("x")
	s := b.String()
	noReset.Put(b) // want `b \(\*bytes.Buffer\) is Put into noReset without Reset, and no Get from it resets`
	return s
}

func badBuilder() string {
	sb := builders.Get().(*strings.Builder)
	sb.WriteString("x")
	s := sb.String()
	builders.Put(sb) // want `sb \(\*strings.Builder\) is Put into builders without Reset`
	return s
}

func (s *server) badField() int {
	b := s.bufs.Get().(*bytes.Buffer)
	b.WriteString("x")
	n := b.Len()
	s.bufs.Put(b) // want `is Put into bufs without Reset`
	return n
}

// --- clean -----------------------------------------------------------------

func cleanResetOnGet() string {
	b := resetOnGet.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	s := b.String()
	resetOnGet.Put(b)
	return s
}

func cleanResetOnPut() string {
	b := resetOnPut.Get().(*bytes.Buffer)
	b.WriteString("x")
	s := b.String()
	b.Reset()
	resetOnPut.Put(b)
	return s
}

func cleanResetInHelper() string {
	b := resetInHelper.Get().(*bytes.Buffer)
	render(b)
	s := b.String()
	resetInHelper.Put(b)
	return s
}

func render(b *bytes.Buffer) {
	b.Reset()
	b.WriteString("x")
}

func cleanExported() string {
	b := Exported.Get().(*bytes.Buffer)
	b.WriteString("x")
	s := b.String()
	Exported.Put(b)
	return s
}
