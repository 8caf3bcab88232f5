package report

import (
	"strings"
	"testing"
)

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

// TestReproductionLikeWithLike: the write-up's figure is compared with the
// row that runs the write-up's code. W1 n=1's 0.313× was for a pool storing
// values (pitfall P4), whose row measured 0.369× here; set against reuse
// (faster here), the verdict read "contradicted here" (issue 60).
func TestReproductionLikeWithLike(t *testing.T) {
	pub := &Published{Speedup: 0.313}
	vs := []Variant{
		{Name: "make([]int, n)", Role: RoleBaseline, Valid: true},
		{Name: "sync.Pool, []int value", Role: RoleSyncPool, Valid: true, Published: pub},
		{Name: "sync.Pool, *[]int", Role: RoleSyncPoolCorrect, Valid: true},
		{Name: "reuse.Slices[int]", Role: RoleReuse, Valid: true, Published: pub},
	}
	measured := map[int]Interval{1: iv(0.35, 0.369, 0.39), 2: iv(0.9, 0.95, 1.0), 3: iv(1.1, 1.2, 1.3)}
	v := verdict(vs, func(i, j int) Interval {
		if i == 0 {
			return measured[j]
		}
		return iv(1.2, 1.3, 1.4)
	})
	if v.Reproduction != NotReproduced || v.PublishedRow != "sync.Pool, []int value" || v.PublishedMeasured.Median != 0.369 {
		t.Errorf("W1 n=1: %q against row %q (%s), want %q against the P4 pool's 0.369×; notes %q",
			v.Reproduction, v.PublishedRow, Interval3(v.PublishedMeasured), NotReproduced, v.Notes)
	}
	if line := strings.Join(VerdictLines(Case{Verdict: v}), "\n"); !strings.Contains(line, "published 0.313× for sync.Pool, []int value, 0.369× [0.350–0.390×] here: reproduced, smaller here") {
		t.Errorf("the verdict line does not set the published figure beside its row's:\n%s", line)
	}
}

// TestReproductionWordsRead: the word for the same finding, smaller here,
// reads as that; "not reproduced here" read as a failure.
func TestReproductionWordsRead(t *testing.T) {
	if NotReproduced != "reproduced, smaller here" {
		t.Errorf("NotReproduced is %q", NotReproduced)
	}
	for _, l := range Legend {
		if l.Term == NotReproduced && !strings.Contains(l.Meaning, "the same finding, smaller here") {
			t.Errorf("legend of %q: %q", l.Term, l.Meaning)
		}
	}
}

// TestGarbageNote: less garbage is claimed only for a difference that is
// material. W7 said "the gain is less garbage, not time" on 2.59e-05
// against 3.16e-05 allocations per op: the runtime's own, amortised.
func TestGarbageNote(t *testing.T) {
	for _, tc := range []struct {
		name                                 string
		baseAllocs, baseBytes, allocs, bytes float64
		want                                 bool
	}{
		{"W7: noise", 3.16e-05, 0.01, 2.59e-05, 0.008, false},
		{"two allocations fewer", 3, 600, 1, 200, true},
		{"no allocation fewer, but 4 KiB less", 1, 8192, 1, 4096, true},
		{"a few bytes", 1, 1000, 1, 990, false},
	} {
		base := Variant{AllocsPerOp: tc.baseAllocs, BytesPerOp: tc.baseBytes}
		r := Variant{AllocsPerOp: tc.allocs, BytesPerOp: tc.bytes}
		if got := garbageNote(base, r, StatusSame) != ""; got != tc.want {
			t.Errorf("%s: note %q, want one: %v", tc.name, garbageNote(base, r, StatusSame), tc.want)
		}
	}
}
