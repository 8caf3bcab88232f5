package popular

import (
	"errors"
	"io"

	"github.com/reuse-go/reuse"
)

var byteSlices reuse.Pool[[]byte]

// copyOut copies p into a pooled slice, and gives the slice back: append
// to b[:0] reuses b's array (or a larger one, which the pool then keeps).
func copyOut(w io.Writer, p []byte) error {
	b := byteSlices.Get()
	b = append(b[:0], p...)
	_, err := w.Write(b)
	byteSlices.Put(b)
	return err
}

func copyOutTwice(w io.Writer, p, q []byte) error {
	b := byteSlices.Get()
	b = append(b[:0], p...)
	b = append(b, q...)
	_, err := w.Write(b)
	byteSlices.Put(b)
	return err
}

func copyOutDeferred(w io.Writer, p []byte) error {
	b := byteSlices.Get()
	b = append(b[:0], p...)
	defer func() { byteSlices.Put(b) }()
	_, err := w.Write(b)
	return err
}

var errEmpty = errors.New("empty")

// Look-alikes: the appended slice is still the pooled value.
func copyOutLeak(w io.Writer, p []byte) error {
	b := byteSlices.Get() // want `value taken from the pool is not given back on the path to the return`
	b = append(b[:0], p...)
	if len(b) == 0 {
		return errEmpty
	}
	_, err := w.Write(b)
	byteSlices.Put(b)
	return err
}

func copyOutUseAfter(p []byte) byte {
	b := byteSlices.Get()
	b = append(b[:0], p...)
	byteSlices.Put(b)
	return b[0] // want `b is used after Put`
}
