package chart_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/cmd/reuse/internal/chart"
)

func TestScaleMap(t *testing.T) {
	tests := []struct {
		name string
		s    chart.Scale
		v    float64
		want float64
	}{
		{"linear min", chart.Scale{Min: 0, Max: 10, From: 100, To: 200}, 0, 100},
		{"linear max", chart.Scale{Min: 0, Max: 10, From: 100, To: 200}, 10, 200},
		{"linear mid", chart.Scale{Min: 0, Max: 10, From: 100, To: 200}, 5, 150},
		{"linear inverted", chart.Scale{Min: 0, Max: 10, From: 200, To: 100}, 2, 180},
		{"log min", chart.Scale{Min: 1, Max: 1000, From: 0, To: 300, Log: true}, 1, 0},
		{"log decade", chart.Scale{Min: 1, Max: 1000, From: 0, To: 300, Log: true}, 10, 100},
		{"log max", chart.Scale{Min: 1, Max: 1000, From: 0, To: 300, Log: true}, 1000, 300},
		{"log geometric mid", chart.Scale{Min: 0.1, Max: 10, From: 0, To: 200, Log: true}, 1, 100},
		{"log non-positive", chart.Scale{Min: 1, Max: 10, From: 7, To: 300, Log: true}, 0, 7},
		{"empty range", chart.Scale{Min: 5, Max: 5, From: 0, To: 10}, 5, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Map(tt.v); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("%+v.Map(%g) = %g, want %g", tt.s, tt.v, got, tt.want)
			}
		})
	}
}

func TestScaleTicks(t *testing.T) {
	tests := []struct {
		name string
		s    chart.Scale
		want []float64
	}{
		{"log decades", chart.Scale{Min: 1, Max: 1e6, Log: true}, []float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}},
		{"log narrow", chart.Scale{Min: 1, Max: 10, Log: true}, []float64{1, 2, 5, 10}},
		{"linear", chart.Scale{Min: 0, Max: 10}, []float64{0, 2, 4, 6, 8, 10}},
		{"linear odd", chart.Scale{Min: 0, Max: 1.3}, []float64{0, 0.5, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.s.Ticks()
			if len(got) != len(tt.want) {
				t.Fatalf("Ticks() = %v, want %v", got, tt.want)
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-9*math.Max(1, tt.want[i]) {
					t.Errorf("Ticks() = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestLogBounds(t *testing.T) {
	tests := []struct{ min, max, lo, hi float64 }{
		{0.3, 7, 0.1, 10},
		{1, 1, 1, 10},
		{12, 9000, 10, 1e4},
		{0, 50, 10, 100},
		{0, 0, 1, 10},
	}
	for _, tt := range tests {
		lo, hi := chart.LogBounds(tt.min, tt.max)
		if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-9 {
			t.Errorf("LogBounds(%g, %g) = %g, %g, want %g, %g", tt.min, tt.max, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := map[float64]string{0: "0", 1: "1", 0.01: "0.01", 2.345: "2.35", 1000: "1000", 1e4: "10k", 1e6: "1M", 2.5e9: "2.5G",
		// Halves round away from zero, as the report's text does: the
		// page drew 0.312× where the text said 0.313× (issue 60).
		0.3125: "0.313", 0.0625: "0.0625", 2.125: "2.13"}
	for v, want := range tests {
		if got := chart.Format(v); got != want {
			t.Errorf("Format(%g) = %q, want %q", v, got, want)
		}
	}
}

// element is what wellFormed records of each SVG element.
type element struct {
	name  string
	attrs map[string]string
}

// wellFormed parses s as XML and returns its elements, failing t if it is
// not well-formed.
func wellFormed(t *testing.T, s string) []element {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	var els []element
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, s)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			e := element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			els = append(els, e)
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 {
		t.Fatalf("SVG has %d unclosed elements", depth)
	}
	if len(els) == 0 || els[0].name != "svg" {
		t.Fatalf("SVG root is not <svg>: %s", s)
	}
	return els
}

func attr(t *testing.T, e element, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attrs[name], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.name, name, e.attrs[name], err)
	}
	return v
}

func TestBarChartSVG(t *testing.T) {
	c := chart.BarChart{
		Title:  `speedup <vs> "baseline" & more`,
		Series: []string{"published", "measured"},
		Groups: []chart.BarGroup{
			{Label: "W1", Values: []float64{1, 10}},
			{Label: "W2", Values: []float64{100, math.NaN()}, Notes: []string{"", "✗ failed <check>"}},
			{Label: "W3", Values: []float64{0, 0.1}}, // 0 is not drawn on a log scale
		},
		Log:  true,
		Unit: "×",
		Ref:  1,
	}
	els := wellFormed(t, c.SVG())
	var bars []element
	refs := 0
	for _, e := range els {
		if e.name == "rect" && e.attrs["class"] == "bar" {
			bars = append(bars, e)
		}
		if e.attrs["class"] == "ref" {
			refs++
		}
	}
	if len(bars) != 4 {
		t.Fatalf("bars = %d, want 4 (NaN and 0 skipped on a log scale)", len(bars))
	}
	if refs != 1 {
		t.Errorf("reference lines = %d, want 1", refs)
	}
	notes := 0
	for _, e := range els {
		if e.attrs["class"] == "note" {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("notes = %d, want 1 for the NaN bar with a note", notes)
	}
	// On a log scale from 0.1 to 100, each decade is the same width: the bar
	// for 10 is twice as wide as the one for 1 (both start at 0.1), and 100
	// three times.
	w1 := attr(t, bars[0], "width")
	w10 := attr(t, bars[1], "width")
	w100 := attr(t, bars[2], "width")
	if math.Abs(w10-2*w1) > 0.2 || math.Abs(w100-3*w1) > 0.2 {
		t.Errorf("bar widths for 1, 10, 100 = %g, %g, %g; want proportional to decades 1:2:3", w1, w10, w100)
	}
	if x0, x1 := attr(t, bars[0], "x"), attr(t, bars[1], "x"); x0 != x1 {
		t.Errorf("bars start at x = %g and %g, want the same origin", x0, x1)
	}
}

func TestBarChartLinear(t *testing.T) {
	c := chart.BarChart{Series: []string{"a"}, Groups: []chart.BarGroup{{Label: "x", Values: []float64{5}}, {Label: "y", Values: []float64{10}}}}
	var bars []element
	for _, e := range wellFormed(t, c.SVG()) {
		if e.attrs["class"] == "bar" {
			bars = append(bars, e)
		}
	}
	if len(bars) != 2 {
		t.Fatalf("bars = %d, want 2", len(bars))
	}
	if a, b := attr(t, bars[0], "width"), attr(t, bars[1], "width"); math.Abs(b-2*a) > 0.2 {
		t.Errorf("linear widths for 5 and 10 = %g, %g; want 1:2", a, b)
	}
}

func TestLineChartSVG(t *testing.T) {
	c := chart.LineChart{
		Title:  "ns/op by n",
		XLabel: "n", YLabel: "ns/op",
		LogX: true, LogY: true,
		Series: []chart.Line{
			{Name: "make", Points: []chart.Point{{X: 1, Y: 10}, {X: 10, Y: 100, YLow: 80, YHigh: 130}, {X: 100, Y: 1000}}},
			{Name: "pool", Points: []chart.Point{{X: 1, Y: 50}, {X: 10, Y: math.NaN()}, {X: 100, Y: 50}}},
		},
	}
	els := wellFormed(t, c.SVG())
	var paths, points []element
	errs := 0
	for _, e := range els {
		switch e.attrs["class"] {
		case "line":
			paths = append(paths, e)
		case "point":
			points = append(points, e)
		case "err":
			errs++
		}
	}
	if errs != 1 {
		t.Errorf("error bars = %d, want 1 (the one point that has one)", errs)
	}
	if len(paths) != 2 {
		t.Fatalf("paths = %d, want 2", len(paths))
	}
	if len(points) != 5 {
		t.Fatalf("points = %d, want 5 (NaN skipped)", len(points))
	}
	// make's points lie on a straight line in log-log: equal steps.
	x0, x1, x2 := attr(t, points[0], "cx"), attr(t, points[1], "cx"), attr(t, points[2], "cx")
	y0, y1, y2 := attr(t, points[0], "cy"), attr(t, points[1], "cy"), attr(t, points[2], "cy")
	if math.Abs((x1-x0)-(x2-x1)) > 0.2 || math.Abs((y1-y0)-(y2-y1)) > 0.2 {
		t.Errorf("log-log points not evenly spaced: (%g,%g) (%g,%g) (%g,%g)", x0, y0, x1, y1, x2, y2)
	}
	if y1 >= y0 {
		t.Errorf("larger y drawn lower: y(10)=%g, y(100)=%g; SVG y grows downwards", y0, y1)
	}
	// The broken pool line has two separate segments (two M commands).
	if d := paths[1].attrs["d"]; strings.Count(d, "M") != 2 {
		t.Errorf("pool path %q: want the NaN to break the line into 2 moves", d)
	}
}

func TestLineChartXTicks(t *testing.T) {
	c := chart.LineChart{
		LogX:   true,
		XTicks: []chart.Tick{{At: 0.5, Label: "0"}, {At: 1, Label: "1"}, {At: 1e6, Label: "1e6"}},
		Series: []chart.Line{{Name: "a", Points: []chart.Point{{X: 0.5, Y: 1}, {X: 1e6, Y: 2}}}},
	}
	s := c.SVG()
	wellFormed(t, s)
	for _, l := range []string{">0<", ">1<", ">1e6<"} {
		if !strings.Contains(s, l) {
			t.Errorf("SVG lacks tick label %s", l)
		}
	}
}

func ExampleScale() {
	// A log scale from 1 to 1000 over 300 pixels: each decade is 100 pixels.
	s := chart.Scale{Min: 1, Max: 1000, From: 0, To: 300, Log: true}
	fmt.Println(s.Map(10), s.Map(100), s.Ticks())
	// Output: 100 200 [1 10 100 1000]
}

func ExampleBarChart() {
	c := chart.BarChart{
		Title:  "speedup",
		Series: []string{"published", "measured"},
		Groups: []chart.BarGroup{{Label: "W9", Values: []float64{7, 12.8}}},
		Log:    true,
		Unit:   "×",
		Ref:    1,
	}
	svg := c.SVG()
	fmt.Println(strings.HasPrefix(svg, "<svg"), strings.Count(svg, `class="bar"`))
	// Output: true 2
}

// TestBarChartErrorBars checks that a bar with bounds gets an error bar
// spanning them, and one whose bounds cannot be drawn gets none.
func TestBarChartErrorBars(t *testing.T) {
	c := chart.BarChart{
		Series: []string{"a", "b"},
		Log:    true,
		Groups: []chart.BarGroup{
			{Label: "x", Values: []float64{2, 4}, Low: []float64{1.5, math.NaN()}, High: []float64{3, 5}},
			{Label: "y", Values: []float64{1, 8}, Low: []float64{0.5, 6}, High: []float64{2, 20}},
		},
	}
	var errs []element
	for _, e := range wellFormed(t, c.SVG()) {
		if e.attrs["class"] == "err" {
			errs = append(errs, e)
		}
	}
	if len(errs) != 3 {
		t.Fatalf("error bars = %d, want 3 (a NaN bound draws none)", len(errs))
	}
	// The scale reaches the largest bound, 20: the chart's ticks must
	// include a decade at or above it.
	if svg := c.SVG(); !strings.Contains(svg, ">100<") {
		t.Errorf("axis does not extend to cover the error bar up to 20:\n%s", svg)
	}
}

// TestBase2Ticks: a byte axis ticks at powers of two, labelled in KiB and
// MiB, not at powers of ten labelled kB and MB.
func TestBase2Ticks(t *testing.T) {
	got := chart.Scale{Min: 1e4, Max: 1e7, Log: true, Base2: true}.Ticks()
	want := []float64{1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22}
	if len(got) != len(want) {
		t.Fatalf("ticks %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ticks %v, want %v", got, want)
			break
		}
	}
	svg := chart.BarChart{Log: true, Base2: true, Unit: "B", Groups: []chart.BarGroup{{Label: "a", Values: []float64{3 << 20}}, {Label: "b", Values: []float64{96 << 10}}}}.SVG()
	for _, s := range []string{">16KiB<", ">1MiB<", ">4MiB<"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the axis lacks %s", s)
		}
	}
}
