package reuse_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/reuse-go/reuse"
)

// TestSlicesExtremes checks Slices at extreme sizes: NewSlices refuses a
// MaxCap it cannot serve with ErrSlicesConfig, Get panics for a negative
// length and for one too large to allocate (as make does), and serves the
// largest lengths it can without overflowing its class arithmetic.
func TestSlicesExtremes(t *testing.T) {
	for _, n := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt/2 + 2, -1, math.MinInt} {
		if _, err := reuse.NewSlices[byte](n); !errors.Is(err, reuse.ErrSlicesConfig) {
			t.Errorf("NewSlices[byte](%d): err = %v, want ErrSlicesConfig", n, err)
		}
		if n > 0 && strconv.IntSize == 32 {
			continue // make would try, and run out of memory, fatally
		}
		var s reuse.Slices[byte]
		if p := panics(func() { s.Get(n) }); p == nil {
			t.Errorf("Slices.Get(%d) did not panic", n)
		}
	}
	// The largest MaxCap accepted for bytes: Get within it computes its
	// class without overflowing, then cannot allocate (where int has 64
	// bits: with 32, these sizes can be tried, and exhaust memory).
	if strconv.IntSize == 32 {
		return
	}
	big, err := reuse.NewSlices[byte](math.MaxInt / 2)
	if err != nil {
		t.Fatalf("NewSlices[byte](MaxInt/2): %v", err)
	}
	for _, n := range []int{math.MaxInt / 2, math.MaxInt/2 - 1, math.MaxInt / 4} {
		p := panics(func() { big.Get(n) })
		if msg := fmt.Sprint(p); p == nil || !strings.Contains(msg, "makeslice") {
			t.Errorf("Slices{MaxCap: MaxInt/2}.Get(%d): panic %v, want the runtime's makeslice error", n, p)
		}
	}
	for _, n := range []int{0, 1} {
		s, err := reuse.NewSlices[byte](n)
		if err != nil {
			t.Fatalf("NewSlices[byte](%d): %v", n, err)
		}
		x := s.Get(n)
		if len(x) != n {
			t.Errorf("Get(%d): len = %d", n, len(x))
		}
		s.Put(x)
	}
	// The largest MaxCap accepted, and a Get just above it (a fresh slice).
	s, err := reuse.NewSlices[struct{}](math.MaxInt)
	if err != nil {
		t.Fatalf("NewSlices[struct{}](MaxInt): %v", err)
	}
	if x := s.Get(math.MaxInt); len(x) != math.MaxInt {
		t.Errorf("Slices[struct{}].Get(MaxInt): len = %d", len(x))
	}
}

func panics(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
