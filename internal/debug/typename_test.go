//go:build reusedebug

package debug

import (
	"reflect"
	"testing"
)

type gen[T any] struct{ _ T }

// TestTypeName: reports print byte for uint8, which reflect cannot tell
// apart, as a pool declared reuse.Slices[byte] reads in the user's code;
// only the predeclared uint8, not a type or package so named. rune stays
// int32.
func TestTypeName(t *testing.T) {
	type uint8 struct{} // a local type named uint8: not the predeclared one
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[[]byte](), "[]byte"},
		{reflect.TypeFor[*gen[byte]](), "*debug.gen[byte]"},
		{reflect.TypeFor[*gen[*[64]byte]](), "*debug.gen[*[64]byte]"},
		{reflect.TypeFor[map[byte][]byte](), "map[byte][]byte"},
		{reflect.TypeFor[*gen[rune]](), "*debug.gen[int32]"},
		{reflect.TypeFor[*gen[uint16]](), "*debug.gen[uint16]"},
		// reflect writes it with its package path and a mark (debug.uint8·5).
		{reflect.TypeFor[*gen[uint8]](), reflect.TypeFor[*gen[uint8]]().String()},
	}
	for _, tc := range tests {
		if got := typeName(tc.typ); got != tc.want {
			t.Errorf("typeName(%v) = %q, want %q", tc.typ, got, tc.want)
		}
	}
}
