package demo

import "testing"

func TestScratch(t *testing.T) {
	b := scratch.Get().([]byte)
	if cap(b) < 4096 {
		t.Fatalf("cap = %d, want 4096", cap(b))
	}
	scratch.Put(b[:0])
	if Sum([]byte{1, 2}) != 3 || string(Quote("a")) != `"a"` {
		t.Fatal("wrong")
	}
}
