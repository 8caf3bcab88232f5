package fix

import (
	"bytes"
	"strings"
)

import "sync"

var dirty = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var builders = sync.Pool{New: func() any { return new(strings.Builder) }}

func render(s string) string {
	b := dirty.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	dirty.Put(b) // want `b \(\*bytes.Buffer\) is Put into dirty without Reset`
	return out
}

func renderDeferred(s string) int {
	sb := builders.Get().(*strings.Builder)
	defer builders.Put(sb) // want `sb \(\*strings.Builder\) is Put into builders without Reset`
	sb.WriteString(s)
	return sb.Len()
}

// The Put's argument is not a variable: no fix.
func renderAny(s string) string {
	b := dirty.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	dirty.Put(any(b)) // want `any\(b\) \(\*bytes.Buffer\) is Put into dirty without Reset`
	return out
}
