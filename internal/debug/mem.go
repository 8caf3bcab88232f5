//go:build reusedebug

package debug

import (
	"reflect"
	"unsafe"
)

// Value returns the identity of the value *x for a pool of T, the memory of
// it that a Snapshot covers, and whether its identity survives correct use
// (so that a leak can be reported):
//
//   - a pointer: the pointer; the memory it points to; leaks are tracked.
//     Zero-size targets share one address and are not tracked.
//   - a map or channel: the map or channel; no memory; leaks are tracked.
//   - a slice: its first element; its elements up to cap; leaks are not
//     tracked, because append may replace the array before a correct Put.
//   - anything else (structs, strings, numbers, interfaces, funcs): nil, as
//     the pool holds a copy with no identity.
func Value[T any](x *T) (obj unsafe.Pointer, mem []byte, leaks bool) {
	t := reflect.TypeFor[T]()
	switch t.Kind() {
	case reflect.Pointer:
		p := *(*unsafe.Pointer)(unsafe.Pointer(x))
		size := t.Elem().Size()
		if p == nil || size == 0 {
			return nil, nil, false
		}
		return p, unsafe.Slice((*byte)(p), size), true
	case reflect.UnsafePointer, reflect.Map, reflect.Chan:
		p := *(*unsafe.Pointer)(unsafe.Pointer(x))
		return p, nil, p != nil
	case reflect.Slice:
		// Every slice header has the same layout; cap counts elements.
		h := (*[]byte)(unsafe.Pointer(x))
		size := t.Elem().Size()
		if cap(*h) == 0 || size == 0 {
			return nil, nil, false
		}
		p := unsafe.Pointer(unsafe.SliceData(*h))
		return p, unsafe.Slice((*byte)(p), uintptr(cap(*h))*size), false
	}
	return nil, nil, false
}

// Slice returns the identity and memory of s's backing array up to cap, for
// Seal and Check, and the mode that suits its element type: Poison when E
// holds only integers, floats or arrays and structs of them, Snapshot
// otherwise. obj is nil when s has no capacity or E has size zero.
func Slice[E any](s []E) (obj unsafe.Pointer, mem []byte, mode Mode) {
	size := unsafe.Sizeof(*new(E))
	if cap(s) == 0 || size == 0 {
		return nil, nil, Snapshot
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	mode = Snapshot
	if poisonable(reflect.TypeFor[E]()) {
		mode = Poison
	}
	return p, unsafe.Slice((*byte)(p), uintptr(cap(s))*size), mode
}

// poisonable reports whether any bit pattern is a valid value of t and t
// holds no pointers: poison written over it can be read without harm.
func poisonable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return poisonable(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !poisonable(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// PutPtr is Put for an object known by a typed pointer, such as a
// *bytebuf.Buffer.
func PutPtr[T any](pool any, x *T) bool { return Put(pool, unsafe.Pointer(x)) }

// GotPtr is Got, with leak tracking where it works, for an object known by a
// typed pointer that a pool hands out without having stored it: one its
// caller made because the pool was empty.
// Zero-size objects share one address and are not tracked.
func GotPtr[T any](pool any, x *T) {
	if unsafe.Sizeof(*x) != 0 {
		Got(pool, unsafe.Pointer(x), Leaks)
	}
}

// DiscardPtr is Discard for an object known by a typed pointer.
func DiscardPtr[T any](pool any, x *T) {
	if unsafe.Sizeof(*x) != 0 {
		Discard(pool, unsafe.Pointer(x))
	}
}

// SealPoison is Seal(x, mem, Poison) for an object known by a typed pointer:
// mem is the byte array it owns, up to its capacity.
func SealPoison[T any](x *T, mem []byte) { Seal(unsafe.Pointer(x), mem, Poison) }

// GotPoisoned is Got, with leak tracking where it works, then Check of the
// poison, for an object known by a typed pointer that owns the byte array
// mem.
func GotPoisoned[T any](pool any, x *T, mem []byte) {
	Got(pool, unsafe.Pointer(x), Leaks)
	Check(pool, unsafe.Pointer(x), mem, Poison)
}

// SealBytes poisons b up to its capacity, for a pool of bare byte arrays
// known by their first byte.
func SealBytes(b []byte) {
	obj, mem, _ := Slice(b)
	Seal(obj, mem, Poison)
}

// CheckBytes checks the poison SealBytes wrote over b, up to its capacity.
func CheckBytes(pool any, b []byte) {
	obj, mem, _ := Slice(b)
	Check(pool, obj, mem, Poison)
}
