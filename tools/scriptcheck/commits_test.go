package scriptcheck

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// subjectsSince is the commit after which every subject must fit
// maxSubject: main's head when the rule was written down (CONTRIBUTING.md,
// "Commits"). Older subjects stay as they are.
const subjectsSince = "3b7e6ab"

// maxSubject is the longest commit subject, in characters.
const maxSubject = 72

// longSubjects returns a line for each subject of log (one per line, as
// git log --format=%s prints them) longer than maxSubject characters.
func longSubjects(log string) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		if n := utf8.RuneCountInString(s); n > maxSubject {
			out = append(out, fmt.Sprintf("%d characters: %q", n, s))
		}
	}
	return out
}

// TestCommitSubjects fails on a commit after subjectsSince whose subject is
// longer than 72 characters. Where the history is not there (no git, a
// shallow clone, a tarball), it skips and says so: CI clones main fully.
func TestCommitSubjects(t *testing.T) {
	skipWithoutProcesses(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: commit subjects not checked")
	}
	if err := exec.Command("git", "rev-parse", "--verify", "--quiet", subjectsSince+"^{commit}").Run(); err != nil {
		t.Skipf("commit %s is not in this clone's history (shallow clone or no repository): commit subjects not checked", subjectsSince)
	}
	out, err := exec.Command("git", "log", "--format=%s", subjectsSince+"..HEAD").Output()
	if err != nil {
		t.Fatalf("git log %s..HEAD: %v", subjectsSince, err)
	}
	for _, s := range longSubjects(string(out)) {
		t.Errorf("commit subject over %d characters (CONTRIBUTING.md, \"Commits\"): %s", maxSubject, s)
	}
}

// TestLongSubjects shows the check can fail, and counts characters, not
// bytes.
func TestLongSubjects(t *testing.T) {
	ok := "bytebuf: " + strings.Repeat("é", maxSubject-len("bytebuf: "))
	long := "httpcompress: " + strings.Repeat("x", maxSubject-len("httpcompress: ")+1)
	got := longSubjects(ok + "\n" + long + "\n")
	if len(got) != 1 || !strings.Contains(got[0], "73 characters") {
		t.Errorf("longSubjects = %q, want one report, of the 73-character subject", got)
	}
}
