// Package sizeclass maps lengths to size classes: a fixed, increasing list of
// capacities with four classes per doubling, so that rounding a length up to
// its class wastes less than a quarter of it.
//
// The sizes are 1, 2, 3, 4, 5, 6, 7, 8, then four evenly spaced sizes in each
// doubling: 10, 12, 14, 16, 20, 24, 28, 32, 40, ... 1024, 1280, 1536, 1792,
// 2048, ... Every power of two is a class size. Sizes are counted in elements;
// what an element is belongs to the caller.
//
// The math is a few shifts with math/bits; it does not allocate and holds no
// state, so it is safe for concurrent use.
package sizeclass

import (
	"math/bits"
	"strconv"
)

// MaxSize is the largest class size: 1<<62 where int has 64 bits, 1<<30 where
// it has 32.
const MaxSize = 1 << (strconv.IntSize - 2)

// NumClasses is the number of classes; classes are numbered 0 to NumClasses-1,
// and Size(NumClasses-1) == MaxSize.
const NumClasses = 4*(strconv.IntSize-2) - 4

// Class returns the smallest class whose size is at least n: the class a
// request for n elements is served from. Class returns 0 for n <= 1. n must not
// exceed MaxSize; larger n give a class >= NumClasses.
func Class(n int) int {
	// For n-1 in [2^(e-1), 2^e), round n up to a multiple of 2^(e-3), which
	// leaves a mantissa of 4 to 8 units; below 8, the unit is 1.
	m := uint(max(n, 1) - 1)
	s := bits.Len(m|7) - 3 // at least 0: m|7 has 3 bits or more
	return 4*s + int(m>>s)
}

// Fit returns Class(n) and its size, Size(Class(n)), in fewer steps than the
// two calls, for hot paths. The same limits on n apply.
func Fit(n int) (class, size int) {
	m := uint(max(n, 1) - 1)
	s := bits.Len(m|7) - 3
	q := m >> s
	return 4*s + int(q), int(q+1) << s
}

// FloorSize returns the size of Floor(capacity), the largest class size at
// most capacity, in fewer steps, for hot paths: it keeps the top three bits
// of a capacity of 8 or more. capacity must be in [1, MaxSize].
func FloorSize(capacity int) int {
	c := uint(capacity)
	k := bits.Len(c|7) - 3
	return int(c >> k << k)
}

// Size returns the capacity of class c, for 0 <= c < NumClasses; it panics
// with an index out of range on other c, which only a bug in the caller can
// produce.
func Size(c int) int {
	_ = classes[c]
	// Class c+1 = 4*sh + m, with the mantissa m in [4, 8) (or below 4 when
	// sh is 0), has size m << sh.
	k := c + 1
	sh := max(k>>2-1, 0)
	return (k - 4*sh) << sh
}

// classes is indexed by Size only for its bounds check: a class out of range
// panics with an index error, at a cost that keeps Size inlinable.
var classes [NumClasses]struct{}

// Floor returns the largest class whose size is at most capacity: the class a
// slice of that capacity can serve. exact reports whether capacity is that
// class's size. Floor returns -1, false when capacity < 1; capacity above
// MaxSize gives NumClasses-1.
func Floor(capacity int) (class int, exact bool) {
	// The largest class of size <= capacity is the one below the smallest
	// class of size > capacity; for capacity < 1 that is class -1.
	c := Class(min(capacity, MaxSize)+1) - 1
	// capacity is a class size when rounding it up and down agree.
	return c, Class(capacity) == c
}
