package jsonpool_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/jsonpool"
	"github.com/reuse-go/reuse/reusetest"
)

type catalogItem struct {
	ID   int      `json:"id"`
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// catalog is about 32 KiB of JSON, the size advise flagged.
func catalog() []catalogItem {
	v := make([]catalogItem, 400)
	for i := range v {
		v[i] = catalogItem{i, strings.Repeat("n", 50), []string{"a", "b"}}
	}
	return v
}

// TestEncodeIntoBytebuf measures what the package documentation's "With
// bytebuf" section promises: Encode of a pointer into a Buffer from a
// bytebuf.Pool writes json.Marshal's bytes and a newline in one Write, and
// on a warm path allocates nothing, neither in encoding/json (whose own
// buffer it pools) nor in the Buffer, which takes its larger array from its
// pool (Stats.GrowNews does not move).
func TestEncodeIntoBytebuf(t *testing.T) {
	reusetest.KeepPooled(t)
	v := catalog()
	want, _ := json.Marshal(v)
	var pool bytebuf.Pool
	encode := func() {
		buf := pool.Get()
		if err := jsonpool.Encode(buf, &v); err != nil {
			t.Fatal(err)
		}
		if buf.Len() != len(want)+1 {
			t.Fatalf("Encode into a Buffer: %d bytes, want %d", buf.Len(), len(want)+1)
		}
		pool.Put(buf)
	}
	encode()
	grown := pool.Stats().GrowNews
	a := reusetest.AllocsAtMost(t, 0, encode)
	t.Logf("Encode into a pooled bytebuf.Buffer, %d bytes: %v", len(want)+1, a)
	if g := pool.Stats().GrowNews; g != grown {
		t.Errorf("on a warm path the Buffers grew into %d new arrays, want 0", g-grown)
	}
}
