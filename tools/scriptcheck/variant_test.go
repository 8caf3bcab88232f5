//go:build race || reusedebug || reuse_nolinkname

package scriptcheck

// plainBuild is false where the tests are built with -race or one of the
// module's build tags (reusedebug, reuse_nolinkname).
const plainBuild = false
