package bytebuf

import "github.com/reuse-go/reuse/internal/debug"

// Discard tells the pool that the caller gives b up on purpose instead of
// putting it back: the garbage collector takes b and its arrays, and the
// debug build (-tags reusedebug) does not report it as a leak. In a normal
// build Discard does nothing and compiles to nothing; dropping b without it
// is not an error there. b must not be used after Discard, as after Put.
func (p *Pool) Discard(b *Buffer) {
	if debug.Enabled && b != nil {
		debug.DiscardPtr(p, b)
	}
}
