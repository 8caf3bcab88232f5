// Package scriptcheck holds the tests of the repository's shell scripts
// that decide what CI runs (scripts/can-run-goarch) or count what the
// benchmarks docs cite (scripts/opcost), and of the commit history's form
// (subjects of at most 72 characters). It has no code of its own.
package scriptcheck
