package other

import "testing"

func TestLen(t *testing.T) {
	scratch.Put(make([]byte, 0, 8192))
	if Len() < 4096 {
		t.Fatal("short")
	}
}
