package useafter

import (
	"io"

	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/kgzip"
	"helper"
)

func badKgzipReader(r io.Reader, p []byte) {
	zr, _ := kgzip.NewReader(r)
	zr.Close()
	zr.Read(p) // want `zr is used after Close`
}

func badBufioWriter(w io.Writer) {
	bw := bufiopool.NewWriter(w, 4096)
	bw.WriteString("x")
	bw.Close()
	bw.Flush() // want `bw is used after Close`
}

func badJSONValuesTwice(fail bool) {
	v := values.Get()
	if fail {
		values.Put(v)
	}
	values.Put(v) // want `v is Put twice`
}

func badDeferredHelperReturn() []byte {
	b := helper.Get()
	defer helper.Release(b)
	b.WriteString("x")
	return b.Bytes() // want `memory of b is returned, but the deferred Put`
}

func badDeferredClosureAndHelper(fail bool) error {
	b := helper.Get()
	defer func() { helper.Release(b) }()
	if fail {
		helper.Release(b) // want `b is Put twice: here and by the deferred Put`
		return io.EOF
	}
	return nil
}

func badAfterLoop(items []string) int {
	b := bufs.Get() // want `not given back`
	for _, it := range items {
		if it == "" {
			bufs.Put(b)
			break
		}
		b.WriteString(it)
	}
	return b.Len() // want `b is used after Put`
}

func badSliceBox() []byte {
	bp := new([]byte)
	pool.Put(bp)
	return *bp // want `bp is used after Put`
}

func badTypeSwitch(x any) {
	b := bufs.Get()
	bufs.Put(b)
	switch v := x.(type) {
	case string:
		b.WriteString(v) // want `b is used after Put`
	}
}

func badInterfaceClose(w io.Writer) {
	zw, _ := kgzip.NewWriter(w, 6)
	var c io.Closer = zw
	c.Close()
	zw.Write(nil) // want `c is used after Close`
}
