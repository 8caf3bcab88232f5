//go:build tinygo

package pin

// OK is false under TinyGo, which has no procPin.
const OK = false

// Pin returns 0; callers do not rely on it when OK is false.
func Pin() int { return 0 }

// Unpin does nothing under TinyGo.
func Unpin() {}
