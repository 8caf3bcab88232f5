//go:build tinygo || reuse_nolinkname

package perp

// OK is false under TinyGo, which has no procPin, and with the build tag
// reuse_nolinkname, which avoids //go:linkname into the runtime (see pin.go).
const OK = false

// Pin returns 0; callers do not rely on it when OK is false.
func Pin() int { return 0 }

// Unpin does nothing where OK is false.
func Unpin() {}
