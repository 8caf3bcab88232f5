package bytebuf_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/reuse-go/reuse/bytebuf"
)

// A Pool is ready to use as a zero value. Get a Buffer, write into it, hand
// the bytes on, and Put it back; do not touch it afterwards.
func Example() {
	var pool bytebuf.Pool

	buf := pool.Get()
	buf.WriteString("id=")
	buf.AppendInt(42)
	buf.WriteString(" ok=")
	buf.AppendBool(true)
	buf.WriteByte('\n')
	buf.WriteTo(os.Stdout)
	pool.Put(buf)
	// Output:
	// id=42 ok=true
}

// The Append methods format into the buffer without allocating.
func ExampleBuffer_AppendTime() {
	var buf bytebuf.Buffer
	t := time.Date(2024, 5, 17, 8, 30, 0, 0, time.UTC)
	buf.AppendTime(t, time.RFC3339)
	buf.WriteString(" level=")
	buf.AppendQuote("info")
	buf.WriteString(" took=")
	buf.AppendFloat(1.25, 'f', 2, 64)
	fmt.Println(buf.String())
	// Output:
	// 2024-05-17T08:30:00Z level="info" took=1.25
}

// NewPool sets the bounds; nonsense is an error, not a clamp.
func ExampleNewPool() {
	pool, err := bytebuf.NewPool(bytebuf.Config{MaxCap: 1 << 20, Budget: 16 << 20})
	fmt.Println(pool != nil, err)

	_, err = bytebuf.NewPool(bytebuf.Config{MaxCap: 1 << 20, Budget: 1 << 10})
	fmt.Println(err)
	// Output:
	// true <nil>
	// bytebuf: invalid Config: Budget 1024 below MaxCap 1048576
}

// AvailableBuffer lets append-style APIs (strconv.Append*, encoders that
// take a dst []byte and return it extended) write into a Buffer without a
// copy: append to buf.AvailableBuffer() and Write the result. To hand a
// Buffer's bytes to a []byte-in, []byte-out API, pass Bytes() as the input
// (valid until the next change to that Buffer) and another Buffer's
// AvailableBuffer() as the output, so neither side allocates.
func ExampleBuffer_AvailableBuffer() {
	var pool bytebuf.Pool

	in := pool.Get()
	in.WriteString("id=")
	in.Write(strconv.AppendInt(in.AvailableBuffer(), 42, 10))

	out := pool.Get()
	out.Grow(base64.StdEncoding.EncodedLen(in.Len())) // room first: the append stays in place
	out.Write(base64.StdEncoding.AppendEncode(out.AvailableBuffer(), in.Bytes()))
	pool.Put(in) // in.Bytes() is not used after this

	fmt.Println(out.String())
	pool.Put(out)
	// Output:
	// aWQ9NDI=
}
