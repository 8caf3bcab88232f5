package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(r io.Reader) (Report, error) {
	var rep Report
	dec := json.NewDecoder(r)
	if err := dec.Decode(&rep); err != nil {
		return Report{}, fmt.Errorf("reading a report: %w", err)
	}
	if len(rep.Workloads) == 0 {
		return Report{}, fmt.Errorf("reading a report: no workloads")
	}
	return rep, nil
}

// Compare writes a benchstat-style comparison of two runs, such as one Go
// version against another or one machine against another: for every
// variant both measured, the median time per op in each with its spread,
// the change, and whether the change is significant by a Mann-Whitney U
// test over the rounds (p < 0.05; "~" when it is not). Then the same for
// reuse's headline speedup against sync.Pool written correctly, and the
// geometric mean of the changes.
func Compare(w io.Writer, old, new Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s\nnew: %s\n\n", Machine(old), Machine(new))
	unit := "time/op"
	if old.Timing == "cpu" && new.Timing == "cpu" {
		unit = "cpu/op"
	} else if old.Timing != new.Timing {
		fmt.Fprintf(&b, "note: old times are %s time, new %s time\n\n", old.Timing, new.Timing)
	}
	fmt.Fprintf(&b, "%-44s %16s %16s %24s\n", unit, "old", "new", "delta")
	compareTimes(&b, old, new)
	b.WriteString("\nreuse against sync.Pool written correctly (speedup, 95% interval)\n")
	compareHeadlines(&b, old, new)
	_, err := io.WriteString(w, b.String())
	return err
}

// compareTimes writes a row per variant both runs measured, and the
// geometric mean of the changes.
func compareTimes(b *strings.Builder, old, new Report) {
	newVariants := index(new)
	var logSum float64
	var n, missing int
	for _, wl := range old.Workloads {
		for _, c := range wl.Cases {
			for _, ov := range c.Variants {
				key := label(wl, c) + " " + ov.Name
				nv, ok := newVariants[key]
				if !ok {
					missing++
					continue
				}
				fmt.Fprintf(b, "%-44s %16s %16s %24s\n", clip(key, 44), spread(ov), spread(nv), delta(ov.RoundTimes, nv.RoundTimes))
				if o, m := ov.Time(), nv.Time(); o > 0 && m > 0 {
					logSum += math.Log(m / o)
					n++
				}
			}
		}
	}
	if n > 0 {
		fmt.Fprintf(b, "%-44s %16s %16s %24s\n", "geomean of new/old", "", "", fmt.Sprintf("%+.1f%%", 100*(math.Exp(logSum/float64(n))-1)))
	}
	if missing > 0 {
		fmt.Fprintf(b, "(%d variants of the old run are not in the new one)\n", missing)
	}
}

// compareHeadlines writes reuse's headline comparison in each run, per
// case both measured.
func compareHeadlines(b *strings.Builder, old, new Report) {
	newCases := map[string]Case{}
	for _, wl := range new.Workloads {
		for _, c := range wl.Cases {
			newCases[label(wl, c)] = c
		}
	}
	for _, wl := range old.Workloads {
		for _, c := range wl.Cases {
			nc, ok := newCases[label(wl, c)]
			if !ok || c.Verdict.Headline.Against == "" {
				continue
			}
			oh, nh := c.Verdict.Headline, nc.Verdict.Headline
			fmt.Fprintf(b, "%-16s %-36s %-36s\n", label(wl, c), Interval3(oh.Speedup)+" "+oh.Status, Interval3(nh.Speedup)+" "+nh.Status)
		}
	}
}

// index maps "W1 n=0 make([]int, n)" to the variant.
func index(r Report) map[string]Variant {
	m := map[string]Variant{}
	for _, wl := range r.Workloads {
		for _, c := range wl.Cases {
			for _, v := range c.Variants {
				m[label(wl, c)+" "+v.Name] = v
			}
		}
	}
	return m
}

// spread formats a variant's median time with the half-width of its
// quartiles as a percentage: 12.3ns ± 4%.
func spread(v Variant) string {
	t := v.Time()
	if !v.Valid || t <= 0 {
		return "✗"
	}
	return fmt.Sprintf("%s ± %.0f%%", Duration(t), 100*(v.TimeQ3-v.TimeQ1)/2/t)
}

// delta formats the change of the median from old to new rounds, with the
// p-value of a two-sided Mann-Whitney U test: "-12.3% (p=0.001 n=9+9)", or
// "~ (p=0.43 n=9+9)" when p is 0.05 or more.
func delta(old, new []float64) string {
	if len(old) == 0 || len(new) == 0 {
		return "(no rounds)"
	}
	p := mannWhitney(old, new)
	counts := fmt.Sprintf("n=%d+%d", len(old), len(new))
	if p >= 0.05 {
		return fmt.Sprintf("~ (p=%.2f %s)", p, counts)
	}
	mo, mn := medianInterval(old).Median, medianInterval(new).Median
	return fmt.Sprintf("%+.1f%% (p=%.3f %s)", 100*(mn/mo-1), p, counts)
}

// mannWhitney returns the two-sided p-value of the Mann-Whitney U test that
// x and y come from the same distribution, by the normal approximation with
// a correction for ties and for continuity.
func mannWhitney(x, y []float64) float64 {
	if len(x) == 0 || len(y) == 0 {
		return 1
	}
	type obs struct {
		v     float64
		fromX bool
	}
	all := make([]obs, 0, len(x)+len(y))
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	n1, n2 := float64(len(x)), float64(len(y))
	nn := n1 + n2
	var rx, tie float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1 … j, averaged
		t := float64(j - i)
		tie += t*t*t - t
		for k := i; k < j; k++ {
			if all[k].fromX {
				rx += rank
			}
		}
		i = j
	}
	u := rx - n1*(n1+1)/2
	mean := n1 * n2 / 2
	sd := math.Sqrt(n1 * n2 / 12 * (nn + 1 - tie/(nn*(nn-1))))
	if sd == 0 {
		return 1
	}
	z := (math.Abs(u-mean) - 0.5) / sd
	if z < 0 {
		z = 0
	}
	return math.Erfc(z / math.Sqrt2)
}
