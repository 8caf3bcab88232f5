//go:build !tinygo

package stripe

import _ "unsafe" // for go:linkname

// pinned reports whether Add can pin the goroutine to its P.
const pinned = true

// procPin and procUnpin are the runtime functions sync.Pool uses to stay on
// one P. The runtime keeps them available to linkname on purpose
// (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
