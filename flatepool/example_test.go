package flatepool_test

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"

	"github.com/reuse-go/reuse/flatepool"
)

func ExampleNewWriter() {
	var stream bytes.Buffer
	w, err := flatepool.NewWriter(&stream, flate.BestSpeed)
	if err != nil {
		panic(err)
	}
	io.WriteString(w, "raw deflate, no header, no checksum")
	if err := w.Close(); err != nil {
		panic(err)
	}

	plain, err := flatepool.Decompress(nil, stream.Bytes(), 1<<10)
	fmt.Printf("%s %v\n", plain, err)
	// Output:
	// raw deflate, no header, no checksum <nil>
}
