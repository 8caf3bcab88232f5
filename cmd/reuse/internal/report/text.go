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
	fmt.Fprintf(&b, "reuse report: %s %s/%s, GOMAXPROCS=%d, %d CPUs, %s run in %.1f s\n",
		r.GoVersion, r.GOOS, r.GOARCH, r.GOMAXPROCS, r.NumCPU, r.Mode, r.Seconds)
	col := "time/op"
	if r.Timing == "cpu" {
		col = "cpu/op"
		b.WriteString("cpu/op is process CPU time per op (all threads, GC work included), steadier than wall time\n")
		b.WriteString("on a loaded machine (wall time is in -json and -html), in the fastest of interleaved rounds.\n")
	} else {
		b.WriteString("time/op is wall-clock time per op in the fastest of interleaved rounds.\n")
	}
	b.WriteString("Speedup is against the baseline in this run; publ. is the write-ups' ratio (other machines, older\n")
	b.WriteString("Go; ! marks one that is not real). allocs/op and GC/op are exact fractions over all rounds;\n")
	b.WriteString("first = allocations of the very first op.\n")
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
				fmt.Fprintf(&b, "  %-8s %-28s %9s %8s %8s %5d %7s %7s %7s\n",
					clip(name, 8), clip(v.Name, 28), Duration(v.Time()), Bytes(v.BytesPerOp),
					Fraction(v.AllocsPerOp), v.FirstAllocs, Fraction(v.GCsPerOp), speedupCell(v), publishedCell(v))
			}
			wrap(&b, "  ", VerdictLine(c))
			for _, v := range c.Variants {
				if !v.Valid {
					wrap(&b, "  ", fmt.Sprintf("✗ %s: %s", v.Name, v.Check))
				}
			}
		}
		for _, f := range w.Findings {
			wrap(&b, "  ", fmt.Sprintf("! %s %s: %s (%s)", f.Pitfall, f.Variant, f.Message, f.Evidence))
		}
	}
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

// VerdictLine says in words how reuse's speedup compares with the published.
func VerdictLine(c Case) string {
	v := c.Verdict
	head := "→ reuse"
	if c.Name != "" {
		head += " (" + c.Name + ")"
	}
	switch v.Status {
	case "met":
		return fmt.Sprintf("%s %s vs published %s: met", head, Ratio(v.Measured), Ratio(v.Published))
	case "not met", "within noise":
		return fmt.Sprintf("%s %s vs published %s: %s, %s", head, Ratio(v.Measured), Ratio(v.Published), v.Status, v.Why)
	case "published ratio not real":
		return fmt.Sprintf("%s %s; published %s is not real: %s", head, Ratio(v.Measured), Ratio(v.Published), v.Why)
	case "no published ratio":
		return fmt.Sprintf("%s %s; no published ratio: %s", head, Ratio(v.Measured), v.Why)
	}
	return fmt.Sprintf("%s: %s, %s", head, v.Status, v.Why)
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

// Duration formats nanoseconds with a unit: 9.8ns, 1.23µs, 814µs, 1.2ms.
func Duration(ns float64) string {
	switch {
	case ns < 10:
		return fmt.Sprintf("%.2fns", ns)
	case ns < 1e3:
		return fmt.Sprintf("%.1fns", ns)
	case ns < 1e4:
		return fmt.Sprintf("%.2fµs", ns/1e3)
	case ns < 1e6:
		return fmt.Sprintf("%.0fµs", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.1fms", ns/1e6)
	}
	return fmt.Sprintf("%.2fs", ns/1e9)
}

// Bytes formats a byte count: 24, 1.0Ki, 8.0Mi.
func Bytes(b float64) string {
	switch {
	case b < 1024:
		if b == math.Trunc(b) {
			return fmt.Sprintf("%.0f", b)
		}
		return fmt.Sprintf("%.3g", b)
	case b < 1<<20:
		return fmt.Sprintf("%.1fKi", b/1024)
	}
	return fmt.Sprintf("%.1fMi", b/(1<<20))
}

// Fraction formats a per-op count exactly enough to show what rounding
// hides (pitfall P5): 0, 1, 0.25, 0.00132, 10000.
func Fraction(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// Ratio formats a speedup: 2.31×, 0.84×, 1.2k×.
func Ratio(v float64) string {
	switch {
	case v == 0:
		return "—"
	case v >= 1e4:
		return fmt.Sprintf("%.0fk×", v/1e3)
	case v >= 100:
		return fmt.Sprintf("%.0f×", v)
	}
	return fmt.Sprintf("%.2f×", v)
}
