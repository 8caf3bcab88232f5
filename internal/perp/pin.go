//go:build !tinygo && !reuse_nolinkname

package perp

// Pinning the calling goroutine to its processor (P), as sync.Pool does for
// its per-P caches, lets per-P data be updated without atomic
// read-modify-write instructions. Between Pin and Unpin the goroutine cannot
// be preempted, so no other goroutine runs on that P: data owned by the P has
// a single writer. Keep the pinned section short, and do not allocate, block
// or call back into user code inside it.
//
// This is the one place in the module that reaches into the runtime. Pin
// and Unpin are declared with //go:linkname to runtime.procPin and
// runtime.procUnpin. Go 1.23 and later forbid linkname references into the
// standard library except to symbols it marks as tolerated because widely
// used packages depend on them; procPin and procUnpin are so marked
// (go.dev/issue/67401), but that is a tolerance, not a promise of the Go 1
// compatibility guarantee. Should a Go release close that door, build with
// -tags reuse_nolinkname: OK is then false and every pool of the module runs
// on its sync.Pools alone (pin_off.go), as it does under the race detector.
// scripts/test runs the whole suite with that tag.

import (
	_ "unsafe" // for go:linkname

	"github.com/reuse-go/reuse/internal/race"
)

// OK is true where per-P data may be written with plain stores while pinned.
// It is false under the race detector, which cannot see the ordering that
// pinning gives and would report the accesses, and under TinyGo, which has no
// procPin. Callers fall back to atomics or sync.Pool when it is false.
const OK = !race.Enabled

// Pin pins the goroutine to its P and returns the P's id, in [0, GOMAXPROCS).
//
// Pin and Unpin are the runtime's procPin and procUnpin themselves, which
// sync.Pool uses and the runtime keeps available to linkname on purpose
// (go.dev/issue/67401). They are declared by linkname rather than wrapped: a
// wrapper inlines into ordinary functions but not into generic code
// instantiated in another package, where each call then went through the
// wrapper (PERFORMANCE.md).
//
//go:linkname Pin runtime.procPin
func Pin() int

// Unpin undoes Pin.
//
//go:linkname Unpin runtime.procUnpin
func Unpin()
