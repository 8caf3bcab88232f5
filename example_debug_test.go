//go:build reusedebug

package reuse_test

import (
	"bytes"
	"fmt"

	"github.com/reuse-go/reuse"
)

// Built with -tags reusedebug, a pool reports the second Put of an object it
// already holds (and does not store it again), instead of handing it later
// to two callers at once. By default the report is a panic; here a handler
// prints it.
func ExampleSetMisuseHandler() {
	prev := reuse.SetMisuseHandler(func(m reuse.Misuse) {
		fmt.Println(m.Kind, "on", m.Pool[:len("*reuse.Pool[*bytes.Buffer]")])
	})
	defer func() { reuse.SetMisuseHandler(prev) }()

	p := reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }, Reset: (*bytes.Buffer).Reset}
	b := p.Get()
	b.WriteString("request body")
	p.Put(b)
	p.Put(b) // a retry path that puts the buffer back again
	// Output: double Put on *reuse.Pool[*bytes.Buffer]
}
