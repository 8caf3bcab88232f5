package report_test

import (
	"regexp"
	"testing"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

// TestDefs checks what the report relies on in every workload definition,
// so that a new workload file that forgets a field fails here rather than
// producing a page with holes.
func TestDefs(t *testing.T) {
	defs := report.Defs()
	if len(defs) == 0 {
		t.Fatal("no workload is registered")
	}
	id := regexp.MustCompile(`^[WB][1-9][0-9]*$`)
	label := regexp.MustCompile(`^P[1-9][0-9]*$`)
	seen := map[string]bool{}
	for i, d := range defs {
		if !id.MatchString(d.ID) || seen[d.ID] {
			t.Errorf("workload %d: id %q is not a fresh W<number>", i, d.ID)
		}
		seen[d.ID] = true
		if i > 0 && defs[i-1].ID[0] == d.ID[0] && (len(defs[i-1].ID) > len(d.ID) || len(defs[i-1].ID) == len(d.ID) && defs[i-1].ID > d.ID) {
			t.Errorf("Defs: %s comes after %s, want numeric order", d.ID, defs[i-1].ID)
		}
		if d.Name == "" || d.Op == "" || d.Claim == "" || d.Published == "" {
			t.Errorf("%s: Name, Op, Claim and Published must all be set: %q, %q, %q, %q", d.ID, d.Name, d.Op, d.Claim, d.Published)
		}
		for _, p := range d.Pitfalls {
			if !label.MatchString(p) {
				t.Errorf("%s: pitfall %q is not a label P<number>", d.ID, p)
			}
		}
		if len(d.Pitfalls) > 0 && d.Detect == nil {
			t.Errorf("%s declares pitfalls %v but has no Detect to find them", d.ID, d.Pitfalls)
		}
		if len(d.Cases) == 0 {
			t.Errorf("%s has no cases", d.ID)
		}
		for _, c := range d.Cases {
			roles := map[string]int{}
			for j, v := range c.Variants {
				roles[v.Role]++
				if j == 0 && v.Role != report.RoleBaseline {
					t.Errorf("%s %s: first variant %q has role %q, want the baseline", d.ID, c.Name, v.Name, v.Role)
				}
				if v.New == nil {
					t.Errorf("%s %s: variant %q has no New", d.ID, c.Name, v.Name)
				}
			}
			if roles[report.RoleBaseline] != 1 || roles[report.RoleReuse] != 1 || roles[report.RoleSyncPool] != 1 || roles[report.RoleSyncPoolCorrect] > 1 {
				t.Errorf("%s %s: roles %v, want one baseline, one sync.Pool, one reuse and at most one correct sync.Pool", d.ID, c.Name, roles)
			}
			// Where the usual code has a bug, the headline compares reuse
			// with sync.Pool written correctly, which must be there.
			if len(d.Pitfalls) > 0 && roles[report.RoleSyncPoolCorrect] == 0 {
				t.Errorf("%s %s: the usual code falls into %v, but there is no %q variant", d.ID, c.Name, d.Pitfalls, report.RoleSyncPoolCorrect)
			}
		}
	}
}
