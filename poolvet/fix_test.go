package poolvet_test

import (
	"testing"

	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFixes checks the suggested fixes against the .golden files beside
// testdata/src/fix: the pointer rewrite of a sync.Pool of non-pointers, a
// Reset before the Put (or after the Get, for a deferred Put), and a copy
// of pooled memory returned past a deferred Put. The leak check is off:
// it offers no fix, and the suites test it.
func TestFixes(t *testing.T) {
	f := poolvet.Analyzer.Flags.Lookup("leak")
	old := f.Value.String()
	if err := f.Value.Set("false"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set(old)
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), poolvet.Analyzer, "fix")
}
