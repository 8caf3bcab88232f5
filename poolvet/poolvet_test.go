package poolvet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// suites are the test packages under testdata/src: each has bad cases,
// marked with // want, and clean look-alikes that must not be reported.
var suites = []string{"useafter", "doubleput", "escape", "nonpointer", "reset", "leak", "clean", "popular"}

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), poolvet.Analyzer, "helper")
}

// recorder counts what analysistest reports instead of failing. Facts are
// not counted: every function that gives back a parameter gets one, which
// is not what the suites test (TestFacts does).
type recorder struct {
	*testing.T
	missed, unexpected []string
}

func (r *recorder) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	switch {
	case strings.Contains(msg, "unexpected fact"):
	case strings.Contains(msg, "no diagnostic was reported"):
		r.missed = append(r.missed, msg)
	case strings.Contains(msg, "unexpected diagnostic"):
		r.unexpected = append(r.unexpected, msg)
	case strings.Contains(msg, "does not match pattern"):
		// Counted by the "no diagnostic" line that follows.
	default:
		r.T.Errorf(format, args...)
	}
}

var wantRE = regexp.MustCompile("// want [`\"]")

// countWants returns the number of // want lines in package p's files.
func countWants(t *testing.T, p string) int {
	n := 0
	files, _ := filepath.Glob(filepath.Join(analysistest.TestData(), "src", p, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += len(wantRE.FindAll(data, -1))
	}
	return n
}

// pkgOf returns the test package an analysistest message is about.
func pkgOf(msg string) string {
	p, _, _ := strings.Cut(msg, "/")
	return p
}

// TestSuites runs every test package in one analysistest run, so that the
// standard library is loaded and analyzed once:
//
//   - the suites and resty (a reduced copy of CVE-2023-45286 in go-resty
//     v2.10.0, and of its fix) are checked strictly: each // want reported,
//     nothing else;
//   - missed holds misuse poolvet does not find yet, and heldout the
//     held-out set (testdata/src/heldout/doc.go): on them it measures
//     recall, the share of // want lines reported, and false positives.
//
// It fails on a strict miss, on any false positive, below 95% recall over
// every package, or below 90% on heldout. go test -run Suites -v prints the
// figures and the misses. Recall counts a // want line as found when a
// report on that line matches its pattern.
func TestSuites(t *testing.T) {
	strict := append(append([]string(nil), suites...), "resty")
	measured := []string{"missed", "heldout"}
	if raceEnabled {
		measured = nil // the race detector makes the larger run slow; the strict part still runs
	}
	pkgs := append(append([]string(nil), strict...), measured...)
	r := &recorder{T: t}
	analysistest.Run(r, analysistest.TestData(), poolvet.Analyzer, pkgs...)
	missedBy := make(map[string]int)
	for _, m := range r.missed {
		missedBy[pkgOf(m)]++
		if !slices.Contains(measured, pkgOf(m)) {
			t.Errorf("%s", m)
		}
	}
	for _, u := range r.unexpected {
		t.Errorf("false positive: %s", u)
	}
	if measured == nil {
		return
	}
	for _, m := range r.missed {
		if slices.Contains(measured, pkgOf(m)) {
			t.Logf("missed: %s", m)
		}
	}
	wants, found := 0, 0
	for _, p := range pkgs {
		w := countWants(t, p)
		wants += w
		found += w - missedBy[p]
	}
	ho := countWants(t, "heldout")
	hoFound := ho - missedBy["heldout"]
	t.Logf("every package: recall %d/%d = %.1f%%; heldout: recall %d/%d = %.1f%%; false positives %d",
		found, wants, 100*float64(found)/float64(wants), hoFound, ho, 100*float64(hoFound)/float64(ho), len(r.unexpected))
	if float64(found) < 0.95*float64(wants) {
		t.Errorf("recall %d/%d over every package, want at least 95%%", found, wants)
	}
	if float64(hoFound) < 0.9*float64(ho) {
		t.Errorf("recall %d/%d on heldout, want at least 90%%", hoFound, ho)
	}
}

// TestLifetimes runs the cases whose Get or Put is in another function,
// in another package, strictly: each // want reported, nothing else, and
// the facts of the wrappers they call as their // want comments say.
func TestLifetimes(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), poolvet.Analyzer, "lifetimes", "wrap", "github.com/valyala/bytebufferpool")
}
