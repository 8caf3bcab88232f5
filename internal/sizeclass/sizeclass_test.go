package sizeclass_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/reuse-go/reuse/internal/sizeclass"
)

// exhaustive is how far the tests check every length one by one.
const exhaustive = 4 << 20

func TestClassIsSmallestFit(t *testing.T) {
	prev := 0
	for n := 0; n <= exhaustive; n++ {
		c := sizeclass.Class(n)
		if c < prev {
			t.Fatalf("Class(%d) = %d, below Class(%d) = %d", n, c, n-1, prev)
		}
		prev = c
		if msg := smallestFit(n, c); msg != "" {
			t.Fatal(msg)
		}
		if fc, fs := sizeclass.Fit(n); fc != c || fs != sizeclass.Size(c) {
			t.Fatalf("Fit(%d) = %d, %d; want %d, %d", n, fc, fs, c, sizeclass.Size(c))
		}
	}
}

// smallestFit returns what is wrong with Class(n) = c, or "" when c is the
// smallest class whose size is >= n. It does not call t.Helper: that costs
// more than the check, millions of times over.
func smallestFit(n, c int) string {
	if c < 0 || c >= sizeclass.NumClasses {
		return fmt.Sprintf("Class(%d) = %d, out of [0, %d)", n, c, sizeclass.NumClasses)
	}
	if s := sizeclass.Size(c); s < n {
		return fmt.Sprintf("Class(%d) = %d of size %d, too small", n, c, s)
	}
	if c > 0 {
		if s := sizeclass.Size(c - 1); s >= n {
			return fmt.Sprintf("Class(%d) = %d, but class %d of size %d also fits", n, c, c-1, s)
		}
	}
	return ""
}

func TestEveryClassRoundTrips(t *testing.T) {
	for c := 0; c < sizeclass.NumClasses; c++ {
		s := sizeclass.Size(c)
		if got := sizeclass.Class(s); got != c {
			t.Errorf("Class(Size(%d) = %d) = %d, want %d", c, s, got, c)
		}
		if got, exact := sizeclass.Floor(s); got != c || !exact {
			t.Errorf("Floor(%d) = %d, %v; want %d, true", s, got, exact, c)
		}
		// The lengths just around the size, for classes beyond the
		// exhaustive range.
		for _, n := range []int{s - 1, s, s + 1} {
			if n >= 0 && n <= sizeclass.MaxSize {
				if fc, fs := sizeclass.Fit(n); fc != sizeclass.Class(n) || fs != sizeclass.Size(fc) {
					t.Errorf("Fit(%d) = %d, %d; want %d, %d", n, fc, fs, sizeclass.Class(n), sizeclass.Size(sizeclass.Class(n)))
				}
				if msg := smallestFit(n, sizeclass.Class(n)); msg != "" {
					t.Error(msg)
				}
				if msg := largestFit(n); msg != "" {
					t.Error(msg)
				}
			}
		}
		if c == 0 {
			continue
		}
		prev := sizeclass.Size(c - 1)
		if prev >= s {
			t.Errorf("Size(%d) = %d, not above Size(%d) = %d", c, s, c-1, prev)
		}
		// The worst fit is one element more than the previous class: it must
		// waste less than a quarter.
		if n := prev + 1; 4*s >= 5*n {
			t.Errorf("Class(%d) has size %d: %.3f times the length, want < 1.25", n, s, float64(s)/float64(n))
		}
	}
	if got := sizeclass.Size(sizeclass.NumClasses - 1); got != sizeclass.MaxSize {
		t.Errorf("Size(NumClasses-1) = %d, want MaxSize = %d", got, sizeclass.MaxSize)
	}
}

func TestPowersOfTwoAreClasses(t *testing.T) {
	for e := 0; e <= strconv.IntSize-2; e++ {
		n := 1 << e
		if got := sizeclass.Size(sizeclass.Class(n)); got != n {
			t.Errorf("Size(Class(%d)) = %d, want %d", n, got, n)
		}
	}
}

func TestFloorIsLargestFit(t *testing.T) {
	for n := -3; n <= exhaustive; n++ {
		if msg := largestFit(n); msg != "" {
			t.Fatal(msg)
		}
	}
	for _, n := range []int{sizeclass.MaxSize - 1, sizeclass.MaxSize, sizeclass.MaxSize + 1, math.MaxInt} {
		if msg := largestFit(n); msg != "" {
			t.Error(msg)
		}
	}
}

// largestFit returns what is wrong with Floor(n), or "" when it is the
// largest class whose size is <= n (and -1 for n < 1).
func largestFit(n int) string {
	c, exact := sizeclass.Floor(n)
	if n < 1 {
		if c != -1 || exact {
			return fmt.Sprintf("Floor(%d) = %d, %v; want -1, false", n, c, exact)
		}
		return ""
	}
	if c < 0 || c >= sizeclass.NumClasses {
		return fmt.Sprintf("Floor(%d) = %d, out of [0, %d)", n, c, sizeclass.NumClasses)
	}
	s := sizeclass.Size(c)
	if s > n {
		return fmt.Sprintf("Floor(%d) = %d of size %d: a slice of capacity %d cannot serve it", n, c, s, n)
	}
	if c+1 < sizeclass.NumClasses && sizeclass.Size(c+1) <= n {
		return fmt.Sprintf("Floor(%d) = %d, but class %d of size %d also fits", n, c, c+1, sizeclass.Size(c+1))
	}
	if exact != (s == n) {
		return fmt.Sprintf("Floor(%d) = %d, exact = %v, but its size is %d", n, c, exact, s)
	}
	if n <= sizeclass.MaxSize {
		if fs := sizeclass.FloorSize(n); fs != s {
			return fmt.Sprintf("FloorSize(%d) = %d, want Size(Floor(%d)) = %d", n, fs, n, s)
		}
	}
	return ""
}

func TestKnownSizes(t *testing.T) {
	tests := []struct {
		n, size int
	}{
		{0, 1}, {1, 1}, {2, 2}, {7, 7}, {8, 8}, {9, 10}, {10, 10}, {11, 12},
		{17, 20}, {64, 64}, {100, 112}, {1000, 1024}, {1024, 1024}, {1025, 1280},
		{4096, 4096}, {65536, 65536}, {1 << 20, 1 << 20}, {1<<20 + 1, 1<<20 + 1<<18},
	}
	for _, tt := range tests {
		if got := sizeclass.Size(sizeclass.Class(tt.n)); got != tt.size {
			t.Errorf("Size(Class(%d)) = %d, want %d", tt.n, got, tt.size)
		}
	}
}

func TestSizeOutOfRangePanics(t *testing.T) {
	for _, c := range []int{-1, sizeclass.NumClasses, math.MaxInt} {
		t.Run("", func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Size(%d) did not panic", c)
				}
			}()
			sizeclass.Size(c)
		})
	}
}

func BenchmarkClass(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n += sizeclass.Class(n&0xffff + 1)
	}
	sink = n
}

var sink int
