package jsonpool

import (
	"encoding/json"
	"io"

	"github.com/reuse-go/reuse"
)

// maxRetained is the largest output, in bytes, after which an encoder is not
// kept: json.Encoder keeps its indentation buffer, which grows to the size of
// the largest indented value, and a pool must not keep one huge buffer for
// every later small value (pitfall P7). fmt uses the same 64 KiB bound.
const maxRetained = 64 << 10

// Encoder holds encoding options. The zero value encodes exactly like
// json.Marshal. An Encoder is a small value with no state of its own: copy it
// freely and use it from any number of goroutines. The options are applied
// afresh to the pooled json.Encoder on every call, so one call's options never
// reach another call.
type Encoder struct {
	// Prefix and Indent, when either is non-empty, indent the output like
	// json.MarshalIndent(v, Prefix, Indent).
	Prefix, Indent string

	// NoEscapeHTML, when true, leaves <, > and & in strings as they are,
	// like json.Encoder.SetEscapeHTML(false). By default they are escaped
	// as \u003c, \u003e and \u0026, like json.Marshal.
	NoEscapeHTML bool
}

// state is what the pool keeps: a json.Encoder bound for life to its sink.
type state struct {
	sink sink
	enc  *json.Encoder
}

// sink is the io.Writer behind a pooled json.Encoder. Per call it either
// appends to the caller's slice (w == nil) or forwards to the caller's writer.
// Both references are cleared before the state goes back to the pool, so a
// pooled encoder never keeps a caller's memory or writer alive.
type sink struct {
	buf []byte    // the caller's dst while Append runs
	w   io.Writer // the caller's writer while Encode runs
	n   int       // bytes written during this call
	err error     // the caller's writer failed during this call
}

func (s *sink) Write(p []byte) (int, error) {
	s.n += len(p)
	if s.w == nil {
		s.buf = append(s.buf, p...)
		return len(p), nil
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// states pools encoders. A state is taken by get and given back by put, and by
// nothing else, so a debug build can watch both.
var states = reuse.Pool[*state]{
	New: func() *state {
		s := new(state)
		s.enc = json.NewEncoder(&s.sink)
		return s
	},
}

// get takes an encoder and applies e's options to it, all of them, so that
// nothing set by a previous user survives.
func (e *Encoder) get() *state {
	s := states.Get()
	s.enc.SetEscapeHTML(!e.NoEscapeHTML)
	s.enc.SetIndent(e.Prefix, e.Indent)
	return s
}

// put gives s back. A json.Encoder keeps the first write error forever and
// returns it from every later Encode, and keeps an indentation buffer as
// large as the largest value it indented: after a write error, or a value
// larger than maxRetained, put replaces the encoder with a fresh one (an
// allocation on that rare path only) rather than dropping the state, so that
// every state taken is given back, which a debug build checks.
func put(s *state) {
	if s.sink.err != nil || s.sink.n > maxRetained {
		s.enc = json.NewEncoder(&s.sink)
	}
	s.sink = sink{}
	s.enc.SetIndent("", "") // do not keep the caller's strings alive
	states.Put(s)
}

// Append appends the JSON encoding of v to dst and returns the extended slice,
// byte for byte what json.Marshal(v) returns, or with e's options what
// json.MarshalIndent returns or what a json.Encoder with SetEscapeHTML(false)
// writes, without its trailing newline.
//
// The result is the caller's: no pooled memory is returned. Append does not
// allocate when dst has room for the encoding plus one byte (the encoder's
// newline is written there and dropped), apart from what v's own MarshalJSON
// or MarshalText methods allocate. On error it returns dst unchanged and the
// error from encoding/json.
func (e Encoder) Append(dst []byte, v any) ([]byte, error) {
	s := e.get()
	s.sink.buf = dst
	err := s.enc.Encode(v)
	out := s.sink.buf
	put(s)
	if err != nil {
		return dst, err
	}
	return out[:len(out)-1], nil // drop the newline json.Encoder adds
}

// Encode writes the JSON encoding of v followed by a newline to w, exactly
// what json.NewEncoder(w) with e's options writes, in one Write call. With
// indentation it uses a pooled json.Encoder, which keeps its indentation
// buffer from call to call where a fresh one allocates it every time; without
// indentation it uses a fresh json.Encoder, which does not allocate. It
// returns the error from encoding/json or from w.
func (e Encoder) Encode(w io.Writer, v any) error {
	if w == nil {
		panic("jsonpool: Encoder.Encode: nil io.Writer")
	}
	if e.Prefix == "" && e.Indent == "" {
		// Without indentation a json.Encoder has nothing worth pooling,
		// and since Go 1.26 at least, this one stays on the stack: no
		// allocation, and no pool round trip (measured: the pooled path is
		// about 15% slower here). See BenchmarkPaired.
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(!e.NoEscapeHTML)
		return enc.Encode(v)
	}
	// With indentation a json.Encoder allocates its indentation buffer
	// on every call; the pooled one keeps it.
	s := e.get()
	s.sink.w = w
	err := s.enc.Encode(v)
	put(s)
	return err
}

// Append appends the JSON encoding of v to dst, byte for byte what
// json.Marshal(v) returns. It is Encoder{}.Append; see there.
func Append(dst []byte, v any) ([]byte, error) {
	return Encoder{}.Append(dst, v)
}

// Encode writes the JSON encoding of v and a newline to w, exactly what
// json.NewEncoder(w).Encode(v) writes. It is Encoder{}.Encode; see there.
func Encode(w io.Writer, v any) error {
	return Encoder{}.Encode(w, v)
}
