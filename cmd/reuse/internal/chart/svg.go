package chart

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Palette is the series colours of a chart that gives none, in order: a
// neutral grey for the first series, then colours that stay distinct for
// colour-blind readers (Okabe and Ito's).
var Palette = []string{"#8c8c8c", "#e69f00", "#0072b2", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#f0e442", "#000000"}

// pick returns colours[i], or Palette's i-th colour where colours has none.
func pick(colours []string, i int) string {
	if i < len(colours) && colours[i] != "" {
		return colours[i]
	}
	return Palette[i%len(Palette)]
}

// colour is the colour of series i's bar in g: the group's, the chart's,
// or Palette's.
func (c BarChart) colour(g BarGroup, i int) string {
	if i < len(g.Colours) && g.Colours[i] != "" {
		return g.Colours[i]
	}
	return pick(c.Colours, i)
}

// Key is one entry of a legend.
type Key struct{ Name, Colour string }

// BarChart is a horizontal grouped bar chart: one row per group, one bar per
// series in each row.
type BarChart struct {
	Title   string
	Series  []string   // series names, shown in the legend
	Colours []string   // per series; Palette's where none is given
	Groups  []BarGroup // rows, top to bottom
	// Legend, when set, replaces the legend of Series and Colours, for a
	// chart whose groups have colours of their own.
	Legend []Key
	Log    bool   // logarithmic value axis
	Unit   string // appended to tick labels, such as "×"
	// Value, when set, writes the values in place of Format, as the text
	// beside the chart writes them (Unit still appended).
	Value func(float64) string
	// Base2 puts a log scale's ticks at powers of 1024 (Scale.Base2).
	Base2 bool
	Ref   float64 // value of a reference line (such as 1 for "as fast"), 0 for none
	Width int     // pixels; 0 means 760
}

// BarGroup is one row of a BarChart: a label and one value per series. A
// value that is NaN or, on a log scale, not positive is not drawn; if the
// series has a note in Notes, the note is written in the bar's place.
type BarGroup struct {
	Label   string
	Values  []float64
	Notes   []string // optional, per series
	Colours []string // optional, per series: the chart's where none is given
	// Low and High, optional, per series, give an error bar from Low to
	// High across the end of the bar; a pair that cannot be drawn (NaN,
	// or not positive on a log scale) gives none.
	Low, High []float64
}

// bounds returns series i's error bar, if it has one that can be drawn.
func (g BarGroup) bounds(i int, log bool) (lo, hi float64, ok bool) {
	if i >= len(g.Low) || i >= len(g.High) {
		return 0, 0, false
	}
	lo, hi = g.Low[i], g.High[i]
	return lo, hi, drawable(lo, log) && drawable(hi, log) && lo <= hi
}

// Bar geometry, in pixels.
const (
	barH      = 11
	barGap    = 3
	groupGap  = 10
	minLabelW = 150 // the group labels' column, wider for longer labels
	titleH    = 28
	legendH   = 22
	axisH     = 26
	minPad    = 60 // right of the plot, wider for longer value labels
	fontStyle = `font-family="system-ui, sans-serif" font-size="12"`
)

// layout is where a BarChart's plot lies: right of the group labels, left
// of room for the value labels, each as wide as its longest text needs.
func (c BarChart) layout(w int) (labelW, rightPad int) {
	labelW, rightPad = minLabelW, minPad
	for _, g := range c.Groups {
		labelW = max(labelW, int(math.Ceil(TextWidth(g.Label, 12)))+16)
		for _, v := range g.Values {
			if drawable(v, c.Log) {
				rightPad = max(rightPad, int(math.Ceil(TextWidth(c.format(v)+c.Unit, 10)))+8)
			}
		}
	}
	return min(labelW, w/2), rightPad
}

// format writes a value or tick: with Value, or Format.
func (c BarChart) format(v float64) string {
	if c.Value != nil {
		return esc(c.Value(v))
	}
	return Format(v)
}

// tick writes a tick's label: Format, or with Base2 in Ki, Mi and Gi.
func (c BarChart) tick(v float64) string {
	if !c.Base2 {
		return Format(v)
	}
	for _, u := range []struct {
		name string
		size float64
	}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if v >= u.size {
			return trim(v/u.size) + u.name
		}
	}
	return trim(v)
}

// SVG renders the chart as a standalone <svg> element.
func (c BarChart) SVG() string {
	w := c.Width
	if w == 0 {
		w = 760
	}
	ns := max(len(c.Series), 1)
	rowH := ns*(barH+barGap) - barGap + groupGap
	plotTop := titleH + legendH
	plotBottom := plotTop + len(c.Groups)*rowH
	h := plotBottom + axisH
	s := c.scale(w)

	var b strings.Builder
	open(&b, w, h, c.Title)
	fmt.Fprintf(&b, `<text x="0" y="18" font-weight="bold" %s>%s</text>`, fontStyle, esc(c.Title))
	keys := c.Legend
	if keys == nil {
		for i, n := range c.Series {
			keys = append(keys, Key{n, pick(c.Colours, i)})
		}
	}
	legend(&b, keys, titleH+12)
	for _, t := range s.Ticks() {
		x := s.Map(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e0e0e0"/>`, x, plotTop, x, plotBottom)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" %s fill="#555">%s%s</text>`, x, plotBottom+16, fontStyle, c.tick(t), esc(c.Unit))
	}
	labelW, _ := c.layout(w)
	for gi, g := range c.Groups {
		c.row(&b, s, g, plotTop+gi*rowH, rowH, labelW, w)
	}
	if c.Ref != 0 && drawable(c.Ref, c.Log) {
		x := s.Map(c.Ref)
		fmt.Fprintf(&b, `<line class="ref" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#c00" stroke-dasharray="4 3"/>`, x, plotTop-4, x, plotBottom)
	}
	b.WriteString("</svg>")
	return b.String()
}

// scale returns the value axis of a chart w pixels wide: it covers every
// drawable value and the reference line, widened to powers of ten on a log
// scale and to a round step on a linear one.
func (c BarChart) scale(w int) Scale {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range c.Groups {
		for i, v := range g.Values {
			if drawable(v, c.Log) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if l, h, ok := g.bounds(i, c.Log); ok {
				lo, hi = math.Min(lo, l), math.Max(hi, h)
			}
		}
	}
	if c.Ref != 0 {
		lo, hi = math.Min(lo, c.Ref), math.Max(hi, c.Ref)
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	labelW, rightPad := c.layout(w)
	s := Scale{From: float64(labelW), To: float64(w - rightPad), Log: c.Log, Base2: c.Base2}
	if c.Log {
		s.Min, s.Max = LogBounds(lo, hi)
		return s
	}
	s.Min, s.Max = math.Min(0, lo), hi
	if st := niceStep(math.Max(hi-s.Min, 1e-9) / 5); st > 0 {
		s.Max = math.Ceil(hi/st) * st
	}
	return s
}

// row draws one group's label and bars, the group starting at y0, in a
// chart w pixels wide whose labels' column is labelW wide.
func (c BarChart) row(b *strings.Builder, s Scale, g BarGroup, y0, rowH, labelW, w int) {
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end" %s>%s</text>`, labelW-8, y0+(rowH-groupGap)/2+4, fontStyle, esc(fit(g.Label, 12, float64(labelW-8))))
	for si, v := range g.Values {
		y := y0 + si*(barH+barGap)
		if !drawable(v, c.Log) {
			if si < len(g.Notes) && g.Notes[si] != "" {
				x := s.Map(s.Min) + 3
				fmt.Fprintf(b, `<text class="note" x="%.1f" y="%d" font-family="system-ui, sans-serif" font-size="10" fill="%s">%s</text>`,
					x, y+barH-2, "#c00", esc(fit(g.Notes[si], 10, float64(w)-x)))
			}
			continue
		}
		x0, x1 := s.Map(s.Min), s.Map(v)
		if !c.Log && s.Min < 0 {
			x0 = s.Map(0)
		}
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		name := ""
		if si < len(c.Series) {
			name = c.Series[si]
		}
		fmt.Fprintf(b, `<rect class="bar" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %s%s</title></rect>`,
			x0, y, math.Max(x1-x0, 1), barH, c.colour(g, si), esc(g.Label), esc(name), c.format(v), esc(c.Unit))
		label := x1 + 3
		if l, h, ok := g.bounds(si, c.Log); ok {
			xl, xh := s.Map(l), s.Map(h)
			ym := float64(y) + barH/2.0
			fmt.Fprintf(b, `<path class="err" d="M%.1f %.1fH%.1fM%.1f %dv%dM%.1f %dv%d" stroke="#222" stroke-width="1.2" fill="none"><title>%s %s: %s to %s%s</title></path>`,
				xl, ym, xh, xl, y+2, barH-4, xh, y+2, barH-4, esc(g.Label), esc(name), c.format(l), c.format(h), esc(c.Unit))
			label = math.Max(label, xh+3)
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%d" font-family="system-ui, sans-serif" font-size="10" fill="#333">%s%s</text>`,
			label, y+barH-2, c.format(v), esc(c.Unit))
	}
}

// LineChart draws one line per series over a shared x axis.
type LineChart struct {
	Title          string
	XLabel, YLabel string
	Series         []Line
	LogX, LogY     bool
	// XTicks, when set, replaces the automatic x ticks (for sizes such as 0
	// that a log scale cannot show, give the value drawn and its label).
	XTicks        []Tick
	Width, Height int // pixels; 0 means 760 × 420
}

// Line is one series of a LineChart. Points that cannot be drawn (NaN, or
// not positive on a log axis) break the line.
type Line struct {
	Name   string
	Colour string // Palette's colour of the line's place where ""
	Points []Point
}

// Point is one (x, y) datum. YLow and YHigh, when both are drawable and
// not zero, give an error bar from YLow to YHigh.
type Point struct{ X, Y, YLow, YHigh float64 }

// bar returns the point's error bar, if it has one that can be drawn.
func (p Point) bar(log bool) (lo, hi float64, ok bool) {
	return p.YLow, p.YHigh, p.YLow != 0 && p.YHigh != 0 && drawable(p.YLow, log) && drawable(p.YHigh, log) && p.YLow <= p.YHigh
}

// Tick is an axis tick: the value where it is drawn and its label.
type Tick struct {
	At    float64
	Label string
}

// lineLeft and lineBottom are the margins of a LineChart's plot, for the
// y and x axis labels.
const lineLeft, lineBottom = 70, 44

// SVG renders the chart as a standalone <svg> element.
func (c LineChart) SVG() string {
	w, h := c.Width, c.Height
	if w == 0 {
		w = 760
	}
	if h == 0 {
		h = 420
	}
	xs, ys := c.scales(w, h)

	var b strings.Builder
	open(&b, w, h, c.Title)
	fmt.Fprintf(&b, `<text x="0" y="18" font-weight="bold" %s>%s</text>`, fontStyle, esc(c.Title))
	keys := make([]Key, len(c.Series))
	for i, l := range c.Series {
		keys[i] = Key{l.Name, l.Colour}
		if l.Colour == "" {
			keys[i].Colour = pick(nil, i)
		}
	}
	legend(&b, keys, titleH+12)
	c.axes(&b, xs, ys, w, h)
	for i, l := range c.Series {
		c.line(&b, xs, ys, l, keys[i].Colour)
	}
	b.WriteString("</svg>")
	return b.String()
}

// scales returns the x and y scales of a chart w × h pixels: they cover
// every drawable point and the given x ticks.
func (c LineChart) scales(w, h int) (xs, ys Scale) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range c.Series {
		for _, p := range l.Points {
			if c.drawable(p) {
				xlo, xhi = math.Min(xlo, p.X), math.Max(xhi, p.X)
				ylo, yhi = math.Min(ylo, p.Y), math.Max(yhi, p.Y)
				if l, h, ok := p.bar(c.LogY); ok {
					ylo, yhi = math.Min(ylo, l), math.Max(yhi, h)
				}
			}
		}
	}
	for _, t := range c.XTicks {
		xlo, xhi = math.Min(xlo, t.At), math.Max(xhi, t.At)
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi, ylo, yhi = 1, 10, 1, 10
	}
	xs = Scale{Min: xlo, Max: xhi, From: lineLeft, To: float64(w - 20), Log: c.LogX}
	ys = Scale{Min: ylo, Max: yhi, From: float64(h - lineBottom), To: float64(titleH + legendH), Log: c.LogY}
	if c.LogX && len(c.XTicks) == 0 {
		xs.Min, xs.Max = LogBounds(xlo, xhi)
	}
	if c.LogY {
		ys.Min, ys.Max = LogBounds(ylo, yhi)
	} else {
		ys.Min = math.Min(0, ylo)
	}
	return xs, ys
}

func (c LineChart) drawable(p Point) bool { return drawable(p.X, c.LogX) && drawable(p.Y, c.LogY) }

// axes draws the grid, the tick labels and the axis labels.
func (c LineChart) axes(b *strings.Builder, xs, ys Scale, w, h int) {
	top, left := titleH+legendH, lineLeft
	for _, t := range ys.Ticks() {
		y := ys.Map(t)
		fmt.Fprintf(b, `<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e0e0e0"/>`, left, y, w-20, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" %s fill="#555">%s</text>`, left-6, y+4, fontStyle, Format(t))
	}
	xt := c.XTicks
	if len(xt) == 0 {
		for _, t := range xs.Ticks() {
			xt = append(xt, Tick{At: t, Label: Format(t)})
		}
	}
	for _, t := range xt {
		x := xs.Map(t.At)
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e0e0e0"/>`, x, top, x, h-lineBottom)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle" %s fill="#555">%s</text>`, x, h-lineBottom+16, fontStyle, esc(t.Label))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" %s>%s</text>`, (left+w-20)/2, h-6, fontStyle, esc(c.XLabel))
	mid := (top + h - lineBottom) / 2
	fmt.Fprintf(b, `<text x="14" y="%d" text-anchor="middle" transform="rotate(-90 14 %d)" %s>%s</text>`, mid, mid, fontStyle, esc(c.YLabel))
}

// line draws one series: a path broken where a point cannot be drawn, and
// a dot with a tooltip at each point.
func (c LineChart) line(b *strings.Builder, xs, ys Scale, l Line, col string) {
	var d strings.Builder
	pen := false
	for _, p := range l.Points {
		if !c.drawable(p) {
			pen = false
			continue
		}
		cmd := "L"
		if !pen {
			cmd = "M"
		}
		fmt.Fprintf(&d, "%s%.1f %.1f ", cmd, xs.Map(p.X), ys.Map(p.Y))
		pen = true
	}
	if d.Len() > 0 {
		fmt.Fprintf(b, `<path class="line" d="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.TrimSpace(d.String()), col)
	}
	for _, p := range l.Points {
		if lo, hi, ok := p.bar(c.LogY); ok && c.drawable(p) {
			x := xs.Map(p.X)
			fmt.Fprintf(b, `<path class="err" d="M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6" stroke="%s" stroke-width="1.2" fill="none"/>`,
				x, ys.Map(lo), ys.Map(hi), x-3, ys.Map(lo), x-3, ys.Map(hi), col)
		}
		if c.drawable(p) {
			fmt.Fprintf(b, `<circle class="point" cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %s at %s</title></circle>`,
				xs.Map(p.X), ys.Map(p.Y), col, esc(l.Name), Format(p.Y), Format(p.X))
		}
	}
}

func open(b *strings.Builder, w, h int, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, w, h, esc(title))
}

func legend(b *strings.Builder, keys []Key, y int) {
	x := 0
	for _, k := range keys {
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`, x, y-10, k.Colour)
		fmt.Fprintf(b, `<text x="%d" y="%d" %s>%s</text>`, x+16, y, fontStyle, esc(k.Name))
		x += 16 + int(math.Ceil(TextWidth(k.Name, 12))) + 18
	}
}

func drawable(v float64, log bool) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return !log || v > 0
}

func esc(s string) string { return html.EscapeString(s) }

// fit returns s, cut with an ellipsis to the width avail at the font size
// where it is wider.
func fit(s string, size, avail float64) string {
	if TextWidth(s, size) <= avail {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && TextWidth(string(r)+"…", size) > avail {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
