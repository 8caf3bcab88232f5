package jsonpool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/toolarge"
)

// ErrTooLarge is wrapped by the error Decode returns when the input is longer
// than the limit, and when reading it failed with an error that says the
// same of a limit set upstream: one matching reuse.ErrTooLarge (an
// httpcompress request body past Config.RequestLimit) or an
// *http.MaxBytesError (a body behind http.MaxBytesReader). It wraps
// reuse.ErrTooLarge, so a handler that answers 413 on either sentinel
// answers it for all three.
var ErrTooLarge error = toolarge.Sentinel("input larger than the limit", reuse.ErrTooLarge)

// minRead is the first read size and the smallest buffer Decode allocates.
const minRead = 512

// buffers pools the read buffers of Decode. A buffer is taken by getBuffer and
// given back by putBuffer, and by nothing else.
var buffers = reuse.Pool[*[]byte]{
	New: func() *[]byte {
		b := make([]byte, 0, minRead)
		return &b
	},
	// A buffer that grew past maxRetained for one large document is
	// dropped rather than kept for every later small one (pitfall P7).
	Accept: func(b *[]byte) bool { return cap(*b) <= maxRetained },
}

func getBuffer() *[]byte { return buffers.Get() }

func putBuffer(b *[]byte) {
	*b = (*b)[:0]
	buffers.Put(b)
}

// Decode reads r to the end and decodes the one JSON value it holds into v,
// like json.Unmarshal(data, v), reading through a pooled buffer instead of a
// fresh one.
//
// Unlike json.Decoder, which stops after the first value, Decode consumes all
// of r, and anything after the value other than white space is an error: it
// is meant for a request or response body, a file, a message. It reads at
// most limit+1 bytes, and any limit from 1 to math.MaxInt64 works: when r
// holds more than limit bytes it returns an error wrapping ErrTooLarge
// without decoding anything. A read error from r, or a json error
// (*json.SyntaxError, *json.UnmarshalTypeError, ...), is returned wrapped,
// for errors.Is and errors.As; a read error that reports a limit of its own
// (see ErrTooLarge) also wraps ErrTooLarge.
//
// Decode panics if limit < 1 or r is nil: those are mistakes in the calling
// code, not in the data.
func Decode(r io.Reader, v any, limit int64) error {
	if limit < 1 {
		panic("jsonpool: Decode: limit < 1")
	}
	if r == nil {
		panic("jsonpool: Decode: nil io.Reader")
	}
	b := getBuffer()
	defer putBuffer(b)
	var err error
	*b, err = readLimited(*b, r, limit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(*b, v); err != nil {
		return fmt.Errorf("jsonpool: Decode: %w", err)
	}
	return nil
}

// readLimited appends all of r to buf, growing it as needed, and fails with
// ErrTooLarge as soon as more than limit bytes have been read.
func readLimited(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	// One byte more than the limit is enough to know the input is too
	// large. No slice holds more than math.MaxInt bytes, which no input can
	// reach anyway: stop there.
	stop := math.MaxInt
	if limit < math.MaxInt {
		stop = int(limit) + 1
	}
	for {
		end := min(cap(buf), stop)
		if len(buf) == end {
			// Here len(buf) < stop, so cap(buf) < stop: grow by doubling
			// (written so that it cannot overflow), never past stop.
			grown := make([]byte, len(buf), cap(buf)+min(max(cap(buf), minRead), stop-cap(buf)))
			copy(grown, buf)
			buf = grown
			end = cap(buf)
		}
		n, err := r.Read(buf[len(buf):end])
		if n < 0 || n > end-len(buf) {
			return buf, fmt.Errorf("jsonpool: Decode: io.Reader returned an invalid count %d", n)
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return buf, fmt.Errorf("jsonpool: Decode: more than %d bytes: %w", limit, ErrTooLarge)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			if errors.Is(err, reuse.ErrTooLarge) || isMaxBytesError(err) {
				return buf, &readTooLarge{err}
			}
			return buf, fmt.Errorf("jsonpool: Decode: reading: %w", err)
		}
	}
}

// readTooLarge is a read error that reports a limit: it wraps both the
// reader's error and ErrTooLarge.
type readTooLarge struct{ err error }

func (e *readTooLarge) Error() string   { return "jsonpool: Decode: reading: " + e.err.Error() }
func (e *readTooLarge) Unwrap() []error { return []error{e.err, ErrTooLarge} }

// isMaxBytesError reports whether err's tree holds an *http.MaxBytesError,
// found by its type's package and name so that jsonpool does not import
// net/http (and the TLS stack behind it) into every program that decodes
// JSON.
func isMaxBytesError(err error) bool {
	for err != nil {
		if t := reflect.TypeOf(err); t.Kind() == reflect.Pointer &&
			t.Elem().Name() == "MaxBytesError" && t.Elem().PkgPath() == "net/http" {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if isMaxBytesError(e) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
