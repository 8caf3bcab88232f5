package reuse

import "github.com/reuse-go/reuse/internal/debug"

// Discard tells the pool that the caller gives x up on purpose instead of
// putting it back: a value that grew too large to keep, or one left in a
// state its Reset cannot undo. The garbage collector takes x as it would any
// value; the debug build (-tags reusedebug) does not report it as a leak.
//
// In a normal build Discard does nothing and compiles to nothing: calling it
// costs nothing, and dropping x without calling it is not an error. x must
// not be used after Discard, as after Put. Discarding a value that was Put
// back and not taken out since is reported by the debug build as a double
// Put.
func (p *Pool[T]) Discard(x T) {
	if debug.Enabled {
		if obj, _, _ := debug.Value(&x); obj != nil {
			debug.Discard(p, obj)
		}
	}
}

// Discard tells the pool that the caller gives x up on purpose instead of
// putting it back, as Pool.Discard does: the debug build does not report
// its array as a leak. In a normal build it does nothing and compiles to
// nothing.
func (s *Slices[E]) Discard(x []E) {
	if debug.Enabled {
		if obj, _, _ := debug.Slice(x); obj != nil {
			debug.Discard(s, obj)
		}
	}
}
