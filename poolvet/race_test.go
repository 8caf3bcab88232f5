//go:build race

package poolvet_test

// raceEnabled is set under the race detector, which makes TestRecall's
// second pass over every suite slow and adds nothing TestSuites does not.
const raceEnabled = true
