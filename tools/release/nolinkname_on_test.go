//go:build reuse_nolinkname

package main

// nolinkname is true where the tests are built with -tags reuse_nolinkname,
// which changes the pools and not the release: the go commands that the
// release tests run build without it.
const nolinkname = true
