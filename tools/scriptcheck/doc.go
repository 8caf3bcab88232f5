// Package scriptcheck holds the tests of the repository's shell scripts
// that decide what CI runs (scripts/can-run-goarch). It has no code of its
// own.
package scriptcheck
