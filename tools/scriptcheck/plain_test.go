//go:build !race && !reusedebug && !reuse_nolinkname

package scriptcheck

// plainBuild is true where the tests are built without -race and without
// the module's build tags (reusedebug, reuse_nolinkname).
const plainBuild = true
