package report

import "testing"

// TestReproductionWords: the word that sets reuse's speedup against fresh
// allocation beside the published ratio follows the direction of each, so
// that it never says a finding was confirmed where this run found the
// opposite. W4 serial's write-up found the pool slower (0.841x) and this
// machine measured it faster (1.65x [1.35-2.40x]): "reproduced", before.
func TestReproductionWords(t *testing.T) {
	for _, tc := range []struct {
		name      string
		published float64
		measured  Interval
		want      string
	}{
		{"W4 serial: pool slower there, faster here", 0.841, iv(1.35, 1.65, 2.40), Contradicted},
		{"pool faster there, slower here", 2.24, iv(0.7, 0.8, 0.9), Contradicted},
		{"pool faster there, no difference here", 1.34, iv(0.95, 1.02, 1.08), NotConfirmed},
		{"pool slower there, no difference here", 0.841, iv(0.95, 1.02, 1.08), NotConfirmed},
		{"faster in both, reaching the published gain", 2.24, iv(3.73, 5.62, 13.7), Reproduced},
		{"faster in both, the published gain in the interval", 1.34, iv(1.03, 1.46, 1.70), Reproduced},
		{"faster in both, short of the published gain", 8.22, iv(1.5, 2, 3), NotReproduced},
		{"slower in both, as slow as published", 0.110, iv(0.05, 0.08, 0.12), Reproduced},
		{"slower in both, slower than published", 0.5, iv(0.3, 0.35, 0.4), Reproduced},
		{"slower in both, less slow than published", 0.110, iv(0.372, 0.404, 0.479), NotReproduced},
		{"no published ratio", 0, iv(1.1, 1.2, 1.3), NoPublished},
		{"too few rounds", 2, Interval{Low: 3, Median: 3, High: 3}, NotMeasured},
	} {
		vs := []Variant{
			{Name: "new", Role: RoleBaseline, Valid: true},
			{Name: "reuse", Role: RoleReuse, Valid: true},
		}
		if tc.published != 0 {
			vs[1].Published = &Published{Speedup: tc.published}
		}
		v := verdict(vs, func(i, j int) Interval { return tc.measured })
		if v.Reproduction != tc.want {
			t.Errorf("%s: published %v, measured %s: %q, want %q (notes %q)", tc.name, tc.published, Interval3(tc.measured), v.Reproduction, tc.want, v.Notes)
		}
	}
}
