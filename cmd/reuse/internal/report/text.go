package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// WriteText writes the report as an aligned table that fits in 100 columns.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	sum := Summarize(r)
	b.WriteString("reuse report\n")
	wrap(&b, "", "Measured: "+sum.What+".")
	wrap(&b, "", "Where: "+sum.Where+".")
	for _, f := range sum.Findings {
		wrap(&b, "", "* "+f)
	}
	b.WriteByte('\n')
	col := "time/op"
	if r.Timing == "cpu" {
		col = "cpu/op"
		b.WriteString("cpu/op is process CPU time per op (all threads, GC work included), steadier than wall time\n")
		b.WriteString("on a loaded machine (wall time is in -json and -html), the median of the rounds.\n")
	} else {
		b.WriteString("time/op is wall-clock time per op, the median of the rounds.\n")
	}
	b.WriteString("speedup is the baseline's time over the variant's, the median over rounds; publ. is the\n")
	b.WriteString("write-ups' ratio (other machines, older Go; ! marks one that is not real). allocs/op and\n")
	b.WriteString("GC/op are exact fractions over all rounds; first = allocations of the very first op.\n")
	b.WriteString("Each case ends with verdicts for reuse, [in brackets] a 95% interval; the legend is at the end.\n")
	for _, w := range r.Workloads {
		fmt.Fprintf(&b, "\n%s %s: %s\n", w.ID, w.Name, w.Op)
		if w.Claim != "" {
			wrap(&b, "  ", "Claim: "+w.Claim)
		}
		fmt.Fprintf(&b, "  %-8s %-28s %9s %8s %8s %5s %7s %7s %7s\n",
			"case", "variant", col, "B/op", "allocs", "first", "GC/op", "speedup", "publ.")
		for _, c := range w.Cases {
			for i, v := range c.Variants {
				name := ""
				if i == 0 {
					name = c.Name
				}
				fmt.Fprintf(&b, "  %-8s %-28s %9s %8s %8s %5s %7s %7s %7s\n",
					clip(name, 8), clip(v.Name, 28), Duration(v.Time()), Bytes(v.BytesPerOp),
					Fraction(v.AllocsPerOp), Fraction(float64(v.FirstAllocs)), Fraction(v.GCsPerOp), speedupCell(v), publishedCell(v))
			}
			for _, l := range VerdictLines(c) {
				wrap(&b, "  ", l)
			}
			for _, v := range c.Variants {
				if !v.Valid {
					wrap(&b, "  ", fmt.Sprintf("✗ %s: %s", v.Name, v.Check))
				}
				if v.Unsteady != "" {
					wrap(&b, "  ", fmt.Sprintf("~ %s: %s", v.Name, v.Unsteady))
				}
			}
		}
		for _, f := range w.Findings {
			wrap(&b, "  ", fmt.Sprintf("! %s %s: %s (%s)", f.Pitfall, f.Variant, f.Message, f.Evidence))
		}
		for _, n := range w.Notes {
			wrap(&b, "  ", "= "+n)
		}
	}
	WriteSweep(&b, r.Sweep)
	writeLegend(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// lineWidth is the width the notes under a table are wrapped to.
const lineWidth = 100

// wrap writes s to b in lines of at most lineWidth columns, the first
// indented by indent, the others by two more spaces.
func wrap(b *strings.Builder, indent, s string) {
	col := 0
	for i, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			b.WriteString(indent)
			col = len(indent)
		case col+1+n > lineWidth:
			b.WriteString("\n" + indent + "  ")
			col = len(indent) + 2
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	b.WriteByte('\n')
}

// VerdictLines says in words what a case's figures say about reuse: the
// headline against sync.Pool written correctly, then against fresh
// allocation and the published ratio, then the notes computed from the run.
func VerdictLines(c Case) []string {
	v := c.Verdict
	head := "→ reuse"
	if c.Name != "" {
		head += " (" + c.Name + ")"
	}
	var out []string
	if h := v.Headline; h.Against != "" {
		out = append(out, fmt.Sprintf("%s vs sync.Pool written correctly (%s): %s", head, h.Against, comparisonText(h)))
	}
	line := fmt.Sprintf("%s vs fresh allocation: %s", head, comparisonText(v.Baseline))
	switch v.Reproduction {
	case NoPublished, "":
		line += "; " + NoPublished
	case NotMeasured, PublishedFake:
		line += fmt.Sprintf("; published %s: %s", Ratio(v.Published), v.Reproduction)
	default:
		line += fmt.Sprintf("; published %s for %s, %s here: %s", Ratio(v.Published), v.PublishedRow, Interval3(v.PublishedMeasured), v.Reproduction)
	}
	out = append(out, line)
	for _, n := range v.Notes {
		out = append(out, "  "+n)
	}
	return out
}

// comparisonText is a comparison as "1.23× [1.10–1.31], faster".
func comparisonText(c Comparison) string {
	if c.Status == StatusInvalid {
		return StatusInvalid + " (a variant failed its check)"
	}
	s := Interval3(c.Speedup) + ", " + c.Status
	if c.Unsteady != "" {
		s += fmt.Sprintf(" (pool missed: %s, in more than %.0f%% of its ops)", c.Unsteady, 100*MaxMissRate)
	}
	return s
}

// Interval3 formats a speedup interval: 1.23× [1.10–1.31].
func Interval3(iv Interval) string {
	if iv.Confidence == 0 {
		return Ratio(iv.Median)
	}
	return fmt.Sprintf("%s [%s–%s]", Ratio(iv.Median), strings.TrimSuffix(Ratio(iv.Low), "×"), Ratio(iv.High))
}

// writeLegend writes the words of the verdicts and what they mean.
func writeLegend(b *strings.Builder) {
	b.WriteString("\nLegend\n")
	for _, l := range Legend {
		wrap(b, "  ", l.Term+": "+l.Meaning+".")
	}
}

func speedupCell(v Variant) string {
	if !v.Valid {
		return "✗"
	}
	return Ratio(v.Speedup)
}

func publishedCell(v Variant) string {
	if v.Published == nil || v.Published.Speedup == 0 {
		return "—"
	}
	s := Ratio(v.Published.Speedup)
	if v.Published.Fake {
		s += "!"
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Duration formats nanoseconds with a unit, to 3 significant digits:
// 8.80ns, 209ns, 1.23µs, 814µs, 3.40ms.
func Duration(ns float64) string {
	ns = roundSig(ns)
	switch {
	case ns < 1e3:
		return sig3(ns) + "ns"
	case ns < 1e6:
		return sig3(ns/1e3) + "µs"
	case ns < 1e9:
		return sig3(ns/1e6) + "ms"
	}
	return sig3(ns/1e9) + "s"
}

// roundSig rounds v to 3 significant digits, so that a unit can be chosen
// on the rounded value (999.7 ns is 1.00 µs).
func roundSig(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow10(2 - int(math.Floor(math.Log10(math.Abs(v)))))
	return math.Round(v*p) / p
}

// sig3 formats v to 3 significant digits without an exponent: 8.80, 209,
// 0.0123; values of 1000 or more keep their integer digits.
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1000 {
		return fmt.Sprintf("%.0f", v)
	}
	digits := 2 - int(math.Floor(math.Log10(a)))
	// Rounding can carry into a new digit (999.6 → 1000).
	if r := math.Round(a*math.Pow10(digits)) / math.Pow10(digits); r >= math.Pow10(3-digits) {
		digits--
	}
	return fmt.Sprintf("%.*f", max(digits, 0), v)
}

// Bytes formats a byte count to 3 significant digits: 24, 1.00Ki, 8.00Mi,
// 1.50Gi. A count that would take four digits in a unit (1000Ki to 1023Ki)
// is in the next one (0.977Mi to 1.00Mi).
func Bytes(b float64) string {
	if roundSig(b) < 1000 {
		if b == math.Trunc(b) {
			return fmt.Sprintf("%.0f", b)
		}
		return fmt.Sprintf("%.3g", b)
	}
	for i, u := range [...]string{"Ki", "Mi"} {
		if v := b / float64(int64(1)<<(10*(i+1))); roundSig(v) < 1000 {
			return sig3(v) + u
		}
	}
	return sig3(b/(1<<30)) + "Gi"
}

// Fraction formats a per-op count exactly enough to show what rounding
// hides (pitfall P5), to 3 significant digits: 0, 1, 0.25, 0.00132, 10.0k.
func Fraction(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1 && v != math.Trunc(v):
		return fmt.Sprintf("%.3g", v)
	case v < 1000 && v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	}
	return count(v)
}

// Ratio formats a speedup to 3 significant digits: 2.31×, 0.843×, 12.3×,
// 3.41k×, 10.2k×, 1.20M×.
func Ratio(v float64) string {
	if v == 0 {
		return "—"
	}
	return count(v) + "×"
}

// count formats a positive number to 3 significant digits, with k for
// thousands and M for millions: 0.843, 123, 3.41k, 12.4k, 1.20M.
func count(v float64) string {
	v = roundSig(v)
	switch {
	case v < 1e3:
		return sig3(v)
	case v < 1e6:
		return sig3(v/1e3) + "k"
	case v < 1e9:
		return sig3(v/1e6) + "M"
	}
	return sig3(v/1e9) + "G"
}
