package jsonpool

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/debug"
)

// Values is a pool of *T to decode JSON into, made so that stale state
// (pitfall P3) cannot happen through it: every value it hands out, from Get,
// Decode or Unmarshal, is the zero T, so a field missing from a document is
// zero, never the previous document's value. Slices, maps and pointers inside
// a T are dropped with it, not reused: json.Unmarshal adds to an existing map
// instead of replacing it, which would leak keys from one document to the
// next.
//
// What pooling saves is the allocation of the T itself; it pays off for large
// T (see the package documentation).
//
// The zero value is ready to use; the methods of a nil *Values panic. A
// Values is safe for use by multiple goroutines and must not be copied after
// first use.
type Values[T any] struct {
	pool reuse.Pool[*T]
}

// Get returns a pointer to a zero T, from the pool or new. The caller owns it
// until it gives it to Put.
func (p *Values[T]) Get() *T {
	if p == nil {
		panic("jsonpool: Values.Get: nil *Values")
	}
	v := p.pool.Get()
	if v == nil {
		v = new(T)
		if debug.Enabled {
			// Made for the pool, not by it: tracked as if the pool had
			// handed it out, so that the debug build reports it if it
			// is never Put back.
			debug.GotPtr(&p.pool, v)
		}
	}
	return v
}

// Put zeroes *v, dropping everything it refers to, and gives v back to the
// pool. Put transfers ownership: the caller must not use v, or anything it
// read through v without copying, afterwards. Put(nil) does nothing.
func (p *Values[T]) Put(v *T) {
	if p == nil {
		panic("jsonpool: Values.Put: nil *Values")
	}
	if v == nil {
		return
	}
	var zero T
	*v = zero
	p.pool.Put(v)
}

// Decode takes a zero T from the pool and decodes the JSON value in r into
// it, with Decode(r, v, limit); see Decode for the limit and the errors. On
// success the caller owns the result and gives it back with Put; on error
// the value is already back in the pool and Decode returns nil.
func (p *Values[T]) Decode(r io.Reader, limit int64) (*T, error) {
	if p == nil {
		panic("jsonpool: Values.Decode: nil *Values")
	}
	if limit < 1 { // Decode's checks, naming the method: before Get, which would leak
		panic("jsonpool: Values.Decode: limit < 1")
	}
	if r == nil {
		panic("jsonpool: Values.Decode: nil io.Reader")
	}
	v := p.Get()
	if err := Decode(r, v, limit); err != nil {
		p.Put(v)
		return nil, err
	}
	return v, nil
}

// Unmarshal takes a zero T from the pool and decodes data into it with
// json.Unmarshal. On success the caller owns the result and gives it back
// with Put; on error, which wraps the json error, the value is already back
// in the pool and Unmarshal returns nil.
func (p *Values[T]) Unmarshal(data []byte) (*T, error) {
	if p == nil {
		panic("jsonpool: Values.Unmarshal: nil *Values")
	}
	v := p.Get()
	if err := json.Unmarshal(data, v); err != nil {
		p.Put(v)
		return nil, fmt.Errorf("jsonpool: Values.Unmarshal: %w", err)
	}
	return v, nil
}

// Discard tells the pool that the caller gives v up on purpose instead of
// putting it back: the garbage collector takes it, and the debug build
// (-tags reusedebug) does not report it as a leak. In a normal build Discard
// does nothing and compiles to nothing. v must not be used after Discard, as
// after Put.
func (p *Values[T]) Discard(v *T) {
	if debug.Enabled && p == nil {
		panic("jsonpool: Values.Discard: nil *Values")
	}
	if debug.Enabled && v != nil {
		debug.DiscardPtr(&p.pool, v)
	}
}
