package poolvet_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// fixed lists, per file of testdata/src/fix, the lines whose report
// carries a suggested fix; every other report there must carry none.
var fixed = map[string][]int{
	"nonpointer.go": {14, 20, 27, 32, 95},
	"reset.go":      {18, 24},
	"copy.go":       {21, 29, 39, 79},
	// The pool of fixtest.go has a Put in the test file that the rewrite
	// does not know: no fix in either build of the package.
	"fixtest.go":      nil,
	"fixtest_test.go": nil,
}

// TestFixes checks the suggested fixes against the .golden files beside
// testdata/src/fix: the pointer rewrite of a sync.Pool of non-pointers, a
// Reset before the Put (or after the Get, for a deferred Put), and a copy
// of pooled memory returned past a deferred Put. analysistest compares only
// the files some fix edits, so the test also checks which reports carry a
// fix, and which, where the change is not mechanical, do not. The leak
// check is off: it offers no fix, and the suites test it.
func TestFixes(t *testing.T) {
	f := poolvet.Analyzer.Flags.Lookup("leak")
	old := f.Value.String()
	if err := f.Value.Set("false"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set(old)
	results := analysistest.RunWithSuggestedFixes(borrowsIgnored{t}, analysistest.TestData(), poolvet.Analyzer, "fix", "fixtest")
	got := map[string][]int{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			key := filepath.Base(p.Filename)
			if _, ok := fixed[key]; !ok {
				t.Errorf("%s: report in a file not in fixed: %s", p, d.Message)
			}
			if len(d.SuggestedFixes) > 0 {
				got[key] = append(got[key], p.Line)
			}
		}
	}
	for file, want := range fixed {
		slices.Sort(got[file])
		if fmt.Sprint(got[file]) != fmt.Sprint(want) {
			t.Errorf("%s: reports with a fix on lines %v, want %v", file, got[file], want)
		}
	}
}

// borrowsIgnored drops the borrowsFacts of a run's packages from what it
// reports: nearly every function of the fix cases borrows a parameter,
// which is not what they test (TestLifetimes and the leak suite do).
type borrowsIgnored struct{ *testing.T }

func (b borrowsIgnored) Errorf(format string, args ...any) {
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unexpected fact: borrows(") {
		b.T.Errorf("%s", msg)
	}
}
