package kgzip_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse/kgzip"
)

func ExampleCompress() {
	body := []byte(strings.Repeat("a pooled klauspost gzip writer, ", 20))
	z, err := kgzip.Compress(nil, body, gzip.BestSpeed)
	if err != nil {
		panic(err)
	}
	plain, err := kgzip.Decompress(nil, z, 1<<20)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(body), "bytes compressed to less than 100:", len(z) < 100)
	fmt.Println("round trip ok:", bytes.Equal(plain, body))
	// Output:
	// 640 bytes compressed to less than 100: true
	// round trip ok: true
}
