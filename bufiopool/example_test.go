package bufiopool_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/reuse-go/reuse/bufiopool"
)

func ExampleNewReader() {
	r := bufiopool.NewReader(strings.NewReader("alpha\nbeta\n"), 4096)
	defer r.Close() // gives the buffer back; r must not be used afterwards

	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		fmt.Print(line)
	}
	// Output:
	// alpha
	// beta
}

func ExampleNewWriter() {
	w := bufiopool.NewWriter(os.Stdout, 4096)
	fmt.Fprintf(w, "buffered %d\n", 1)
	w.WriteString("buffered 2\n")
	// Close flushes, then gives the buffer back.
	if err := w.Close(); err != nil {
		panic(err)
	}
	// Output:
	// buffered 1
	// buffered 2
}

func ExampleNewReader_sizes() {
	for _, size := range []int{0, 100, 4096, 100_000} {
		r := bufiopool.NewReader(nil, size)
		fmt.Println(size, "->", r.Size())
		r.Close()
	}
	// Output:
	// 0 -> 16
	// 100 -> 128
	// 4096 -> 4096
	// 100000 -> 100000
}
