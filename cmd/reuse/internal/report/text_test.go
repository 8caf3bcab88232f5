package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		f    func(float64) string
		in   float64
		want string
	}{
		{"Duration", report.Duration, 8.8, "8.80ns"},
		{"Duration", report.Duration, 209, "209ns"},
		{"Duration", report.Duration, 20.96, "21.0ns"},
		{"Duration", report.Duration, 999.7, "1.00µs"},
		{"Duration", report.Duration, 1234, "1.23µs"},
		{"Duration", report.Duration, 814_000, "814µs"},
		{"Duration", report.Duration, 3.4e6, "3.40ms"},
		{"Bytes", report.Bytes, 24, "24"},
		{"Bytes", report.Bytes, 0.0015, "0.0015"},
		{"Bytes", report.Bytes, 1024, "1.00Ki"},
		{"Bytes", report.Bytes, 8 << 20, "8.00Mi"},
		// Never four digits: 1000 of a unit or more is the next unit.
		{"Bytes", report.Bytes, 1 << 20, "1.00Mi"},
		{"Bytes", report.Bytes, 1024*1024 - 100, "1.00Mi"}, // was 1024Ki
		{"Bytes", report.Bytes, 1000 * 1024, "0.977Mi"},    // was 1000Ki
		{"Bytes", report.Bytes, 999.4 * 1024, "999Ki"},
		{"Bytes", report.Bytes, 1000, "0.977Ki"}, // was 1000
		{"Bytes", report.Bytes, 999, "999"},
		{"Bytes", report.Bytes, 1023.9 * (1 << 20), "1.00Gi"},
		{"Fraction", report.Fraction, 0, "0"},
		{"Fraction", report.Fraction, 1, "1"},
		{"Fraction", report.Fraction, 0.8, "0.8"},            // 4 of 5: not rounded down to 0 (P5)
		{"Fraction", report.Fraction, 0.0000315, "3.15e-05"}, // one allocation in 31 746 ops
		{"Fraction", report.Fraction, 1.0006, "1.00"},
		{"Fraction", report.Fraction, 10000, "10.0k"},
		{"Fraction", report.Fraction, 999, "999"},
		{"Fraction", report.Fraction, 1234.5, "1.23k"},
		{"Ratio", report.Ratio, 2.314, "2.31×"},
		{"Ratio", report.Ratio, 0.8434, "0.843×"},
		{"Ratio", report.Ratio, 123.4, "123×"},
		{"Ratio", report.Ratio, 0, "—"},
		{"Ratio", report.Ratio, 10175, "10.2k×"},
		{"Ratio", report.Ratio, 3411, "3.41k×"}, // not 3411×: at most 3 significant digits
		{"Ratio", report.Ratio, 999.7, "1.00k×"},
		{"Ratio", report.Ratio, 12434, "12.4k×"},
		{"Ratio", report.Ratio, 1.2e6, "1.20M×"},
		{"Ratio", report.Ratio, 0.0000548, "0.0000548×"},
		{"Bytes", report.Bytes, 1.5 * (1 << 30), "1.50Gi"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.in); got != tt.want {
			t.Errorf("%s(%g) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestWriteTextFits(t *testing.T) {
	var b bytes.Buffer
	if err := report.WriteText(&b, fixture()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line %d has %d columns, want at most 100: %q", i+1, n, line)
		}
	}
	for _, want := range []string{"W1 make vs pool by size", "n=1M", "reuse.Pool[[]int]", "✗ sync.Pool, one input buffer: error: EOF", "! P1", "Legend", "same within noise:"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

// TestTableDigits checks that no cell of the table shows more than 3
// significant digits, as a speedup of 3411× did.
func TestTableDigits(t *testing.T) {
	r := fixture()
	c := &r.Workloads[0].Cases[2]
	c.Variants[1].Speedup = 3411.2
	c.Variants[0].FirstAllocs = 10000
	c.Variants[0].AllocsPerOp = 10003
	var b bytes.Buffer
	if err := report.WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	number := regexp.MustCompile(`\d[\d.]*`)
	rows := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.Contains(line, "make([]int, n)") && !strings.Contains(line, "sync.Pool, []int value") {
			continue
		}
		rows++
		for _, n := range number.FindAllString(line, -1) {
			if d := len(strings.TrimLeft(strings.ReplaceAll(n, ".", ""), "0")); d > 3 {
				t.Errorf("%q has %d significant digits, want at most 3: %q", n, d, line)
			}
		}
	}
	if rows == 0 {
		t.Fatalf("no table rows found:\n%s", b.String())
	}
	for _, want := range []string{"3.41k×", "10.0k"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestUnsteadyShown checks that a variant whose pool missed is marked in
// the table's notes, in its comparison and on the page.
func TestUnsteadyShown(t *testing.T) {
	r := fixture()
	c := &r.Workloads[0].Cases[2]
	c.Variants[1].Unsteady = "its pool missed in 9 of 9 timed ops"
	c.Verdict.Headline.Unsteady = c.Variants[1].Name
	var b bytes.Buffer
	if err := report.WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"~ sync.Pool, []int value: its pool missed in 9 of 9 timed ops", "(pool missed: sync.Pool, []int value, in more than 1% of its ops)", "Pools that missed: the pool of W1 n=1M sync.Pool, []int value"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := report.WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<div class="check unsteady">sync.Pool, []int value: its pool missed`) {
		t.Error("the page does not mark the variant whose pool missed")
	}
}
