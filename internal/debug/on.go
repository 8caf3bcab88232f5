//go:build reusedebug

package debug

// Enabled is true when the module is built with -tags reusedebug. Pools
// guard every hook with it, and tests that the debug build would break (exact
// allocation counts) skip when it is true.
const Enabled = true
