package gzpool_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reuse-go/reuse/gzpool"
)

func ExampleCompress() {
	body := []byte(strings.Repeat("a pooled gzip writer, ", 20))

	// Compress appends to dst; reuse dst[:0] across calls to compress
	// without allocating.
	var dst []byte
	dst, err := gzpool.Compress(dst[:0], body, gzip.BestSpeed)
	if err != nil {
		panic(err)
	}

	plain, err := gzpool.Decompress(nil, dst, 1<<20)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(body), "bytes compressed to less than 100:", len(dst) < 100)
	fmt.Println("round trip ok:", bytes.Equal(plain, body))
	// Output:
	// 440 bytes compressed to less than 100: true
	// round trip ok: true
}

func ExampleDecompress_limit() {
	// 100 MiB of zeros compress to about 100 KiB.
	bomb, err := gzpool.Compress(nil, make([]byte, 100<<20), gzip.BestCompression)
	if err != nil {
		panic(err)
	}

	// Decompress stops as soon as the output would pass the limit.
	out, err := gzpool.Decompress(nil, bomb, 1<<20)
	fmt.Println(len(out), errors.Is(err, gzpool.ErrTooLarge))

	_, err = gzpool.Decompress(nil, bomb[:len(bomb)/2], 200<<20)
	fmt.Println(errors.Is(err, gzpool.ErrCorrupt), errors.Is(err, io.ErrUnexpectedEOF))
	// Output:
	// 0 true
	// true true
}

func ExampleNewWriter() {
	var stream bytes.Buffer
	w, err := gzpool.NewWriter(&stream, gzip.DefaultCompression)
	if err != nil {
		panic(err)
	}
	fmt.Fprintln(w, "hello from a pooled writer")
	if err := w.Close(); err != nil { // gives the compressor back
		panic(err)
	}
	// The handle is dead: it cannot reach the compressor it gave back.
	_, err = w.Write([]byte("too late"))
	fmt.Println(errors.Is(err, gzpool.ErrClosed))

	r, err := gzpool.NewReader(&stream)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	if _, err := io.Copy(os.Stdout, r); err != nil {
		panic(err)
	}
	// Output:
	// true
	// hello from a pooled writer
}
