package heldout

import (
	"bytes"
	"errors"
	"io"
	"os"
)

func release(b *bytes.Buffer) {
	bufs.Put(b)
}

// --- bad: double Put --------------------------------------------------------

// One case Puts and does not return; the Put after the switch is a second.
func badSwitchCaseThenAfter(w io.Writer, mode int) {
	b := bufs.Get()
	switch mode {
	case 0:
		b.WriteString("zero")
	case 1:
		w.Write(b.Bytes())
		bufs.Put(b)
	default:
		b.WriteString("other")
	}
	bufs.Put(b) // want `Put twice`
}

// A case that Puts falls through to one that Puts again.
func badSwitchFallthrough(mode int) {
	b := bufs.Get() // want `not given back`
	switch mode {
	case 1:
		bufs.Put(b)
		fallthrough
	case 2:
		bufs.Put(b) // want `Put twice`
	}
}

// A type switch on the error: every case gives the buffer back, and so does
// the line after it.
func badTypeSwitch(err error) {
	b := bufs.Get()
	switch err.(type) {
	case *os.PathError:
		bufs.Put(b)
	case nil:
	default:
		bufs.Put(b)
	}
	bufs.Put(b) // want `Put twice`
}

// The error path Puts without returning.
func badErrorPathNoReturn(w io.Writer) error {
	b := bufs.Get()
	_, err := w.Write(b.Bytes())
	if err != nil {
		bufs.Put(b)
	}
	bufs.Put(b) // want `Put twice`
	return err
}

// A helper of this package Puts, and so does its caller.
func badHelperThenPut(w io.Writer) {
	b := bufs.Get()
	w.Write(b.Bytes())
	release(b)
	bufs.Put(b) // want `Put twice`
}

// A deferred Put and a Put in one case of a switch.
func badDeferredAndSwitchCase(mode int) {
	b := bufs.Get()
	defer bufs.Put(b)
	switch mode {
	case 1:
		bufs.Put(b) // want `Put twice`
	case 2:
		b.WriteString("x")
	}
}

// A Put inside the loop and one after it, with no Get in between.
func badLoopPutAndAfter(items []string) {
	b := bufs.Get()
	for _, s := range items {
		if s == "" {
			bufs.Put(b)
			break
		}
		b.WriteString(s)
	}
	bufs.Put(b) // want `Put twice`
}

// Slices: the same slice given back on the error path and after it.
func badSlicesDoublePut(r io.Reader) error {
	s := byteSlices.Get(512)
	_, err := r.Read(s)
	if errors.Is(err, io.EOF) {
		byteSlices.Put(s)
	}
	byteSlices.Put(s) // want `Put twice`
	return err
}

// --- clean -----------------------------------------------------------------

func cleanSwitchEachCaseReturns(w io.Writer, mode int) {
	b := bufs.Get()
	switch mode {
	case 1:
		w.Write(b.Bytes())
		bufs.Put(b)
		return
	case 2:
		bufs.Put(b)
		return
	}
	bufs.Put(b)
}

func cleanSwitchEveryCasePuts(mode int) {
	b := bufs.Get()
	switch mode {
	case 1:
		b.WriteString("x")
		bufs.Put(b)
	default:
		bufs.Put(b)
	}
}

func cleanPutGetPut() {
	b := bufs.Get()
	bufs.Put(b)
	b = bufs.Get()
	bufs.Put(b)
}

func cleanErrorPathReturns(w io.Writer) error {
	b := bufs.Get()
	if _, err := w.Write(b.Bytes()); err != nil {
		bufs.Put(b)
		return err
	}
	bufs.Put(b)
	return nil
}

func cleanLoopBreakWithoutPut(items []string) {
	b := bufs.Get()
	for _, s := range items {
		if s == "" {
			break
		}
		b.WriteString(s)
	}
	bufs.Put(b)
}

func cleanSwitchFallthroughOnePut(mode int) {
	b := bufs.Get()
	switch mode {
	case 1:
		b.WriteString("x")
		fallthrough
	case 2:
		bufs.Put(b)
	default:
		bufs.Put(b)
	}
}
