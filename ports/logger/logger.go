// Package logger is rs/zerolog's event pool (v1.34.0) ported onto reuse: a
// logger that writes one JSON object per line, building each line in a
// pooled Event, with zerolog's field names and encoding for the fields it
// has (Str, Int, Msg).
//
// zerolog keeps Events in a sync.Pool and drops, rather than puts back, an
// Event whose buffer grew past 64 KiB (putEvent's maxSize), so that one huge
// line does not pin 64 KiB+ in the pool. The port states that rule once, as
// the pool's Accept hook, and the emptying as its Reset hook; Msg just Puts.
// A dropped Event is not a leak: it was Put, and the pool declined it.
package logger

import (
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/reuse-go/reuse"
)

// maxSize is zerolog's bound on the buffer of an Event put back.
const maxSize = 1 << 16

var events = reuse.Pool[*Event]{
	New:    func() *Event { return &Event{buf: make([]byte, 0, 500)} },
	Reset:  func(e *Event) { e.buf = e.buf[:0]; e.w = nil },
	Accept: func(e *Event) bool { return cap(e.buf) <= maxSize },
}

// zerologEvents and putZerolog are zerolog's own pooling, kept for the
// benchmark that compares the two pools under the same logger: a Logger
// whose zerologPool is set (only tests set it) uses them.
var zerologEvents = &sync.Pool{New: func() any { return &Event{buf: make([]byte, 0, 500)} }}

func putZerolog(e *Event) {
	if cap(e.buf) > maxSize {
		return
	}
	zerologEvents.Put(e)
}

// Logger writes JSON lines to w. It is safe for concurrent use when w is.
type Logger struct {
	w           io.Writer
	zerologPool bool
}

// New returns a Logger writing to w.
func New(w io.Writer) Logger { return Logger{w: w} }

// Info starts an event at level info.
func (l Logger) Info() *Event { return l.newEvent("info") }

// Error starts an event at level error.
func (l Logger) Error() *Event { return l.newEvent("error") }

func (l Logger) newEvent(level string) *Event {
	if l.w == nil {
		return nil // as zerolog's: a zero Logger is disabled, and its nil Events do nothing
	}
	var e *Event
	if l.zerologPool {
		e = zerologEvents.Get().(*Event)
		e.buf = e.buf[:0]
		e.zerologPool = true
	} else {
		e = events.Get()
	}
	e.w = l.w
	e.buf = append(e.buf, `{"level":"`...)
	e.buf = append(e.buf, level...)
	e.buf = append(e.buf, '"')
	return e
}

// An Event is one line being built. It belongs to the pool again once Msg
// returns: keep no reference to it.
type Event struct {
	buf         []byte
	w           io.Writer
	zerologPool bool
}

// Str adds the field key with the string value val.
func (e *Event) Str(key, val string) *Event {
	if e == nil {
		return e
	}
	e.buf = appendKey(e.buf, key)
	e.buf = appendString(e.buf, val)
	return e
}

// Int adds the field key with the integer value i.
func (e *Event) Int(key string, i int) *Event {
	if e == nil {
		return e
	}
	e.buf = appendKey(e.buf, key)
	e.buf = strconv.AppendInt(e.buf, int64(i), 10)
	return e
}

// Msg adds msg as the message field (unless it is empty), writes the line,
// and gives the Event back to the pool. The write error, as zerolog, is not
// returned.
func (e *Event) Msg(msg string) {
	if e == nil {
		return
	}
	if msg != "" {
		e.buf = appendKey(e.buf, "message")
		e.buf = appendString(e.buf, msg)
	}
	e.buf = append(e.buf, '}', '\n')
	if e.w != nil { // as zerolog's
		_, _ = e.w.Write(e.buf)
	}
	if e.zerologPool {
		putZerolog(e)
		return
	}
	events.Put(e) // Reset empties it; Accept drops it past 64 KiB
}

func appendKey(dst []byte, key string) []byte {
	dst = append(dst, ',')
	dst = appendString(dst, key)
	return append(dst, ':')
}

// appendString is zerolog's JSON string encoding: ", \ and control
// characters escaped, invalid UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	// zerolog's fast path: a string with nothing to escape is copied whole.
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			dst = appendStringComplex(dst, s, i)
			return append(dst, '"')
		}
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendStringComplex appends s, from which s[:i] needs no escaping.
func appendStringComplex(dst []byte, s string, i int) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}
