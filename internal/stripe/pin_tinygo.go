//go:build tinygo

package stripe

// TinyGo has no procPin; every Add is an atomic add on one cell.
const pinned = false

func procPin() int { return 0 }
func procUnpin()   {}
