package reuse

import "unsafe"

// Every layout trick of package reuse is in this file, with the invariant it
// relies on. Nothing else in the package converts between unsafe.Pointer and
// a typed value.

// dropsNil reports whether Put drops *x as a nil: T is of a kind that can
// be nil (mode has modeNilable: pointer, map, chan, func, unsafe.Pointer,
// interface or slice) and *x is nil. Invariant: every one of those kinds
// keeps its nil-ness in its first word (the pointer, the interface's type
// word, the slice's array), and that word is 0 exactly when the value is
// nil, except for a non-nil slice of zero capacity whose array pointer may
// still be non-zero (the zerobase), which is then not nil, as == nil says.
// It is a method, not a generic function, so that Put calls it without
// loading a dictionary of its own (internal/perp/PERFORMANCE.md).
func (p *Pool[T]) dropsNil(mode uint32, x *T) bool {
	return mode&modeNilable != 0 && *(*unsafe.Pointer)(unsafe.Pointer(x)) == nil
}

// toWord returns *x as the pointer word it is. Invariant: T is one pointer
// word (Pool's modeWord: pointer, map, chan, func or unsafe.Pointer), so the
// word is the whole value and keeps what it points to alive.
func toWord[T any](x *T) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(x))
}

// fromWord is toWord's inverse, for a word toWord made from a T. It is a
// method, not a generic function, so that Get calls it without loading a
// dictionary of its own.
func (p *Pool[T]) fromWord(v unsafe.Pointer) T {
	return *(*T)(unsafe.Pointer(&v))
}

// fromBox returns a copy of the T that the box v holds, and leaves the box
// as it is: a slot's own box, which the next Put on its P overwrites.
// Invariant: v points to a T. It is a method, not a generic function, so
// that Get calls it without loading a dictionary of its own.
func (p *Pool[T]) fromBox(v unsafe.Pointer) T {
	return *(*T)(v)
}

// unbox returns the T that the box v (a *T that Put filled) holds, and
// clears the box so that it keeps nothing alive. Invariant: v points to a T.
func unbox[T any](v unsafe.Pointer) T {
	b := (*T)(v)
	x := *b
	var zero T
	*b = zero
	return x
}

// intoBox stores x into the box b. Invariant: b points to a T (a box of the
// slot's own, which only ever holds T).
func intoBox[T any](b unsafe.Pointer, x T) {
	*(*T)(b) = x
}

// sliceHeader is the layout of a slice. Invariant: the Go runtime lays out
// every slice as these three words (reflect.SliceHeader documents it).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// makeSlice returns the slice of length n and capacity size over the array
// whose first element p points to, without unsafe.Slice's checks.
// Invariant: Slices only holds arrays of at least size elements of E, and
// 0 <= n <= size.
func makeSlice[E any](p unsafe.Pointer, n, size int) []E {
	return *(*[]E)(unsafe.Pointer(&sliceHeader{p, n, size}))
}

// eface is the layout of an interface value of type any: the type word, then
// the data word.
type eface struct {
	typ, data unsafe.Pointer
}

// efaceData returns the data word of x. Invariant: x holds a pointer-shaped
// value (Slices' sync.Pools hold unsafe.Pointers only), which an interface
// stores as is in its data word.
func efaceData(x any) unsafe.Pointer {
	return (*eface)(unsafe.Pointer(&x)).data
}
