package doccheck

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// release matches a release heading of CHANGELOG.md.
var release = regexp.MustCompile(`^## \[(Unreleased|v?\d+\.\d+\.\d+[^\]]*)\]( - \d{4}-\d{2}-\d{2})?$`)

// changeKinds are Keep a Changelog's kinds of change, in its order.
var changeKinds = []string{"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}

// TestChangelogForm checks that CHANGELOG.md is in Keep a Changelog form:
// [Unreleased] first, then dated releases; under each, each kind of change
// at most once, in the standard order, and no other headings.
func TestChangelogForm(t *testing.T) {
	skipWasm(t)
	var section string
	var kinds []string
	releases := 0
	for i, line := range strings.Split(read(t, "CHANGELOG.md"), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			m := release.FindStringSubmatch(line)
			switch {
			case m == nil:
				t.Errorf("CHANGELOG.md:%d: %q is not a release heading: ## [Unreleased] or ## [1.2.3] - YYYY-MM-DD", i+1, line)
			case releases == 0 && m[1] != "Unreleased":
				t.Errorf("CHANGELOG.md:%d: the first section must be [Unreleased]", i+1)
			case m[1] != "Unreleased" && m[2] == "":
				t.Errorf("CHANGELOG.md:%d: release %s has no date", i+1, m[1])
			}
			section, kinds = line, nil
			releases++
		case strings.HasPrefix(line, "### "):
			kind := strings.TrimPrefix(line, "### ")
			k := slices.Index(changeKinds, kind)
			switch {
			case section == "":
				t.Errorf("CHANGELOG.md:%d: %q outside a release", i+1, line)
			case k < 0:
				t.Errorf("CHANGELOG.md:%d: %q: the kinds are %v, without qualifiers", i+1, line, changeKinds)
			case slices.Index(kinds, kind) >= 0:
				t.Errorf("CHANGELOG.md:%d: a second %q under %s", i+1, kind, section)
			case len(kinds) > 0 && slices.Index(changeKinds, kinds[len(kinds)-1]) > k:
				t.Errorf("CHANGELOG.md:%d: %q after %q: keep the order %v", i+1, kind, kinds[len(kinds)-1], changeKinds)
			}
			kinds = append(kinds, kind)
		case strings.HasPrefix(line, "#### "):
			t.Errorf("CHANGELOG.md:%d: %q: no headings below the kinds of change", i+1, line)
		}
	}
	if releases == 0 {
		t.Error("CHANGELOG.md has no [Unreleased] section")
	}
}
