package jsonpool_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/jsonpool"
)

func ExampleAppend() {
	type Item struct {
		ID    int      `json:"id"`
		Name  string   `json:"name"`
		Items []string `json:"items"`
	}
	buf := make([]byte, 0, 512) // reused across calls: no allocation
	buf, err := jsonpool.Append(buf[:0], &Item{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(buf))
	// Output: {"id":1,"name":"Jack","items":["knife","shield","herbs"]}
}

func ExampleEncoder() {
	pretty := jsonpool.Encoder{Indent: "  ", NoEscapeHTML: true}
	out, _ := pretty.Append(nil, map[string]any{"html": "<b>", "n": []int{1, 2}})
	fmt.Println(string(out))
	// The options belong to the call: the next plain call is plain.
	out, _ = jsonpool.Append(out[:0], map[string]any{"html": "<b>"})
	fmt.Println(string(out))
	// Output:
	// {
	//   "html": "<b>",
	//   "n": [
	//     1,
	//     2
	//   ]
	// }
	// {"html":"\u003cb\u003e"}
}

func ExampleEncode() {
	// What json.NewEncoder(os.Stdout).Encode writes, newline included.
	if err := jsonpool.Encode(os.Stdout, map[string]int{"id": 1}); err != nil {
		panic(err)
	}
	// Output: {"id":1}
}

// A response encoded into a pooled bytebuf.Buffer, then written out: Encode
// writes the whole encoding in one Write, so the Buffer grows at most once,
// through its pool.
func ExampleEncode_bytebuf() {
	var pool bytebuf.Pool // one per program, shared
	type Item struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	v := []Item{{1, "knife"}, {2, "shield"}}

	buf := pool.Get()
	if err := jsonpool.Encode(buf, &v); err != nil { // &v: a pointer, not boxed into an interface
		panic(err)
	}
	buf.WriteTo(os.Stdout) // or w.Write(buf.Bytes()) in a handler
	pool.Put(buf)
	// Output: [{"id":1,"name":"knife"},{"id":2,"name":"shield"}]
}

func ExampleDecode() {
	var v struct {
		ID int `json:"id"`
	}
	err := jsonpool.Decode(strings.NewReader(`{"id":7}`), &v, 1<<20)
	fmt.Println(v.ID, err)

	err = jsonpool.Decode(strings.NewReader(`{"id":12345678}`), &v, 8)
	fmt.Println(errors.Is(err, jsonpool.ErrTooLarge))
	// Output:
	// 7 <nil>
	// true
}

func ExampleValues() {
	type Doc struct {
		X    int    `json:"x"`
		Name string `json:"name"`
	}
	var docs jsonpool.Values[Doc]

	a, _ := docs.Decode(strings.NewReader(`{"x":1,"name":"A"}`), 1<<20)
	fmt.Printf("%+v\n", *a)
	docs.Put(a) // a must not be used after this

	// b may be a's memory, but it starts from zero: no stale x.
	b, _ := docs.Decode(strings.NewReader(`{"name":"B"}`), 1<<20)
	fmt.Printf("%+v\n", *b)
	docs.Put(b)
	// Output:
	// {X:1 Name:A}
	// {X:0 Name:B}
}
