package doubleput

import (
	"bytes"
	"errors"
	"sync"

	"github.com/reuse-go/reuse"
	"helper"
)

var bufs = reuse.Pool[*bytes.Buffer]{Reset: (*bytes.Buffer).Reset}

var pool sync.Pool

var errBad = errors.New("bad")

// --- bad -------------------------------------------------------------------

func badTwice() {
	b := bufs.Get()
	bufs.Put(b)
	bufs.Put(b) // want `b is Put twice: it was already Put at doubleput.go:\d+`
}

func badErrorPath(fail bool) error {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
	}
	bufs.Put(b) // want `b is Put twice`
	return nil
}

// badDeferAndExplicit is the shape of CVE-2023-45286: a deferred Put and an
// explicit one on the error path.
func badDeferAndExplicit(fail bool) error {
	b := bufs.Get()
	defer bufs.Put(b)
	if fail {
		bufs.Put(b) // want `b is Put twice: here and by the deferred Put`
		return errBad
	}
	b.WriteString("x")
	return nil
}

func badDeferClosureAndExplicit(fail bool) error {
	b := bufs.Get()
	defer func() { bufs.Put(b) }()
	if fail {
		bufs.Put(b) // want `b is Put twice: here and by the deferred Put`
		return errBad
	}
	return nil
}

func badHelperThenPut() {
	b := helper.Get()
	helper.Release(b)
	pool.Put(b) // want `b is Put twice`
}

func badPutThenHelper() {
	b := helper.Get()
	pool.Put(b)
	helper.ReleaseSmall(b) // want `b is Put twice`
}

func badLocalHelperTwice() {
	b := bufs.Get()
	free(b)
	free(b) // want `b is Put twice`
}

func free(b *bytes.Buffer) { bufs.Put(b) } // want free:`releases`

func badSwitch(k int) {
	b := bufs.Get()
	switch k {
	case 0:
		bufs.Put(b)
	case 1:
		b.WriteString("x")
	}
	bufs.Put(b) // want `b is Put twice`
}

func badDeferMethodValue(fail bool) {
	b := bufs.Get()
	put := bufs.Put
	defer put(b)
	if fail {
		bufs.Put(b) // want `b is Put twice: here and by the deferred Put`
	}
}

func badSlices(s *reuse.Slices[byte], fail bool) {
	x := s.Get(10)
	if fail {
		s.Put(x)
	}
	s.Put(x) // want `x is Put twice`
}

// --- clean -----------------------------------------------------------------

func cleanEitherOr(fail bool) error {
	b := bufs.Get()
	if fail {
		bufs.Put(b)
		return errBad
	}
	bufs.Put(b)
	return nil
}

func cleanDeferOnly(fail bool) error {
	b := bufs.Get()
	defer bufs.Put(b)
	if fail {
		return errBad
	}
	return nil
}

func cleanDeferNilled(fail bool) error {
	b := bufs.Get()
	defer func() {
		if b != nil {
			bufs.Put(b)
		}
	}()
	if fail {
		bufs.Put(b)
		b = nil
		return errBad
	}
	return nil
}

func cleanTwoValues() {
	a := bufs.Get()
	b := bufs.Get()
	bufs.Put(a)
	bufs.Put(b)
}

func cleanLoopReget(n int) {
	b := bufs.Get()
	for i := 0; i < n; i++ {
		bufs.Put(b)
		b = bufs.Get()
	}
	bufs.Put(b)
}

func cleanMaybe(fail bool) {
	b := helper.Get()
	helper.MaybeRelease(b, fail)
	if !fail {
		helper.Release(b)
	}
}

func cleanGoroutineOwns() {
	b := bufs.Get()
	go func() { bufs.Put(b) }()
}

func cleanSendToOwner(ch chan *bytes.Buffer) {
	b := bufs.Get()
	ch <- b
}
