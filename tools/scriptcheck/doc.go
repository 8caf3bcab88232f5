// Package scriptcheck holds the tests of the repository's shell scripts
// that decide what CI runs (scripts/can-run-goarch) or count what the
// benchmarks docs cite (scripts/opcost). It has no code of its own.
package scriptcheck
