//go:build !reuse_nolinkname

package main

// nolinkname is true where the tests are built with -tags reuse_nolinkname.
const nolinkname = false
