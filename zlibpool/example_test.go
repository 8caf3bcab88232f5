package zlibpool_test

import (
	"compress/zlib"
	"errors"
	"fmt"
	"strings"

	"github.com/reuse-go/reuse/zlibpool"
)

func ExampleCompress() {
	body := []byte(strings.Repeat("zlib, pooled; ", 30))
	z, err := zlibpool.Compress(nil, body, zlib.BestCompression)
	if err != nil {
		panic(err)
	}
	plain, err := zlibpool.Decompress(nil, z, int64(len(body)))
	fmt.Println(string(plain[:14]), len(plain), err)

	_, err = zlibpool.Decompress(nil, z, int64(len(body)-1))
	fmt.Println(errors.Is(err, zlibpool.ErrTooLarge))
	// Output:
	// zlib, pooled;  420 <nil>
	// true
}
