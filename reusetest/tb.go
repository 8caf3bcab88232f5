package reusetest

// TB is the part of testing.TB that the helpers of this package use:
// *testing.T, *testing.B and *testing.F satisfy it, and so does any type that
// embeds a testing.TB. A test double that records instead of failing (to
// test a helper of your own built on these) implements the four methods.
//
//   - Helper marks the calling function as a test helper, so failures name
//     the caller's line.
//   - Errorf reports a failure and lets the test go on.
//   - Skip ends the test as skipped (AllocsAtMost and KeepPooled under the
//     race detector).
//   - Cleanup registers a function to run when the test ends (FailOnMisuse,
//     IgnoreLeaks and KeepPooled restore what they changed).
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Skip(args ...any)
	Cleanup(f func())
}
