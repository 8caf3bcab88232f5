package report

import (
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/reuse-go/reuse/cmd/reuse/internal/chart"
)

// WriteHTML writes the report as one self-contained HTML page: inline CSS
// and SVG, no script, no external request.
func WriteHTML(w io.Writer, r Report) error {
	data := struct {
		R        Report
		Summary  Summary
		Speedup  template.HTML
		Curves   []template.HTML
		Retained []template.HTML
		Sweep    []template.HTML
		Findings []workloadFinding
	}{R: r, Summary: Summarize(r), Speedup: template.HTML(SpeedupChart(r).SVG())}
	for _, c := range CurveCharts(r) {
		data.Curves = append(data.Curves, template.HTML(c.SVG()))
	}
	for _, c := range RetainedCharts(r) {
		data.Retained = append(data.Retained, template.HTML(c.SVG()))
	}
	for _, c := range SweepCharts(r.Sweep) {
		data.Sweep = append(data.Sweep, template.HTML(c.SVG()))
	}
	for _, wl := range r.Workloads {
		for _, f := range wl.Findings {
			data.Findings = append(data.Findings, workloadFinding{wl.ID, wl.Name, f})
		}
	}
	return page.Execute(w, data)
}

// Each implementation has one colour on the whole page, whatever the chart:
// a role's, and for the variants of RoleOther (peer libraries), one per
// name, in the order the report first shows them.
var (
	roleColours = map[string]string{
		RoleBaseline:        "#8c8c8c", // grey
		RoleSyncPool:        "#e69f00", // orange
		RoleSyncPoolCorrect: "#0072b2", // blue
		RoleReuse:           "#009e73", // green
	}
	publishedColour = "#f0e442" // yellow: a write-up's figure, not an implementation
	otherColours    = []string{"#cc79a7", "#d55e00", "#56b4e9", "#000000"}
	roleNames       = map[string]string{
		RoleSyncPool:        "sync.Pool as usually written",
		RoleSyncPoolCorrect: "sync.Pool written correctly",
		RoleReuse:           "reuse",
	}
)

// variantColours returns the colour of each variant of r.
func variantColours(r Report) func(Variant) string {
	others := map[string]string{}
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			for _, v := range c.Variants {
				if _, ok := others[v.Name]; !ok && v.Role == RoleOther {
					others[v.Name] = otherColours[len(others)%len(otherColours)]
				}
			}
		}
	}
	return func(v Variant) string {
		if c, ok := roleColours[v.Role]; ok {
			return c
		}
		return others[v.Name]
	}
}

type workloadFinding struct {
	ID, Name string
	Finding
}

// SpeedupChart is the bar chart of every case's speedup against its
// baseline, with the 95% interval as an error bar: the published pooled
// ratio, sync.Pool as usually written, sync.Pool written correctly (where
// the usual code has a bug) and reuse, here. The cases of a curve
// (Workload.Curve) without a published ratio are left to the curve's chart.
func SpeedupChart(r Report) chart.BarChart {
	series := map[string]int{RoleSyncPool: 1, RoleSyncPoolCorrect: 2, RoleReuse: 3}
	c := chart.BarChart{
		Title:   "Speedup against fresh allocation (log scale; right of the red line is faster)",
		Series:  []string{"published", roleNames[RoleSyncPool], roleNames[RoleSyncPoolCorrect], roleNames[RoleReuse]},
		Colours: []string{publishedColour, roleColours[RoleSyncPool], roleColours[RoleSyncPoolCorrect], roleColours[RoleReuse]},
		Log:     true,
		Unit:    "×",
		Value:   func(v float64) string { return strings.TrimSuffix(Ratio(v), "×") }, // as the text writes it
		Ref:     1,
		Width:   1000,
	}
	for _, w := range r.Workloads {
		for _, cs := range w.Cases {
			if w.Curve != "" && cs.Verdict.Published == 0 {
				continue
			}
			label := w.ID
			if cs.Name != "" {
				label += " " + cs.Name
			}
			nan := math.NaN()
			g := chart.BarGroup{Label: label, Values: []float64{nan, nan, nan, nan}, Notes: make([]string, 4),
				Low: []float64{nan, nan, nan, nan}, High: []float64{nan, nan, nan, nan}}
			if cs.Verdict.Published > 0 {
				g.Values[0] = cs.Verdict.Published
			}
			for _, v := range cs.Variants {
				i := series[v.Role]
				switch {
				case i == 0:
				case !v.Valid:
					g.Notes[i] = "✗ no figure: " + short(v.Check)
				default:
					g.Values[i] = v.Speedup
					if v.SpeedupCI.Confidence > 0 {
						g.Low[i], g.High[i] = v.SpeedupCI.Low, v.SpeedupCI.High
					}
				}
			}
			c.Groups = append(c.Groups, g)
		}
	}
	return c
}

// CurveCharts draws, for each workload whose cases form a curve over their
// size (Workload.Curve), time per op against size for each variant,
// log-log, with size 0 drawn at 0.3 and labelled 0.
func CurveCharts(r Report) []chart.LineChart {
	var out []chart.LineChart
	colour := variantColours(r)
	for _, w := range r.Workloads {
		if w.Curve != "" && len(w.Cases) > 0 {
			out = append(out, curveChart(w, r.Timing, colour))
		}
	}
	return out
}

func curveChart(w Workload, timing string, colour func(Variant) string) chart.LineChart {
	c := chart.LineChart{
		Title:  w.ID + ": time per op against " + w.Curve + " (log-log): where pooling starts to pay",
		XLabel: w.Curve,
		YLabel: "ns/op",
		LogX:   true,
		LogY:   true,
		Width:  1000,
		Height: 440,
	}
	if timing == "cpu" {
		c.YLabel = "CPU ns/op"
	}
	const zeroAt = 0.3
	lines := map[string]*chart.Line{}
	var order []string
	for _, cs := range w.Cases {
		x := float64(cs.Size)
		if x == 0 {
			x = zeroAt
		}
		c.XTicks = append(c.XTicks, chart.Tick{At: x, Label: strings.TrimPrefix(cs.Name, "n=")})
		for _, v := range cs.Variants {
			l, ok := lines[v.Role]
			if !ok {
				l = &chart.Line{Name: v.Name, Colour: colour(v)}
				lines[v.Role] = l
				order = append(order, v.Role)
			}
			p := chart.Point{X: x, Y: math.NaN()}
			if v.Valid {
				p.Y, p.YLow, p.YHigh = v.Time(), v.TimeQ1, v.TimeQ3
			}
			l.Points = append(l.Points, p)
		}
	}
	for _, role := range order {
		c.Series = append(c.Series, *lines[role])
	}
	return c
}

// RetainedCharts draws, for each workload that measures it (Def.Retained),
// the heap each variant keeps after one garbage collection.
func RetainedCharts(r Report) []chart.BarChart {
	var out []chart.BarChart
	colour := variantColours(r)
	for _, w := range r.Workloads {
		for _, cs := range w.Cases {
			var groups []chart.BarGroup
			var keys []chart.Key
			for _, v := range cs.Variants {
				if v.Retained > 0 {
					c := colour(v)
					groups = append(groups, chart.BarGroup{Label: v.Name, Values: []float64{float64(v.Retained)}, Colours: []string{c}})
					keys = append(keys, chart.Key{Name: v.Name, Colour: c})
				}
			}
			if len(groups) == 0 {
				continue
			}
			title := w.ID + ": heap kept after one GC (log scale)"
			if cs.Name != "" {
				title = w.ID + " " + cs.Name + ": heap kept after one GC (log scale)"
			}
			// In KiB and MiB, as the text counts bytes.
			out = append(out, chart.BarChart{Title: title, Series: []string{"retained"}, Groups: groups, Legend: keys, Log: true, Unit: "B", Value: Bytes, Base2: true, Width: 1000})
		}
	}
	return out
}

var funcs = template.FuncMap{
	"duration": Duration,
	"bytes":    Bytes,
	"fraction": Fraction,
	"float":    func(n uint64) float64 { return float64(n) },
	"ratio":    Ratio,
	"verdict":  VerdictLines,
	"speedup":  speedupCell,
	"speedupCI": func(v Variant) string {
		if !v.Valid || v.SpeedupCI.Confidence == 0 || v.Role == RoleBaseline {
			return speedupCell(v)
		}
		return Interval3(v.SpeedupCI)
	},
	"pub": func(v Variant) string {
		s := publishedCell(v)
		if strings.HasSuffix(s, "!") {
			s = strings.TrimSuffix(s, "!") + " (not real)"
		}
		return s
	},
	"lower": strings.ToLower,
	"statusClass": func(s string) string {
		switch s {
		case StatusFaster:
			return "met"
		case StatusSlower, StatusInvalid:
			return "notmet"
		case StatusSame:
			return "noise"
		}
		return "info"
	},
	"legend": func() any { return Legend },
	"first":  func(i int) bool { return i == 0 },
	"rows":   func(c Case) int { return len(c.Variants) },
}

var page = template.Must(template.New("page").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reuse report: sync.Pool workloads measured here</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 24px 32px 48px; color: #222; background: #fff; line-height: 1.45; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 28px 0 4px; }
p.env, p.op { color: #555; margin: 2px 0 8px; font-size: 14px; }
figure { margin: 12px 0 24px; padding: 12px; border: 1px solid #eee; border-radius: 6px; background: #fcfcfc; }
figcaption { font-size: 13px; color: #555; margin-top: 6px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 6px 0; }
th, td { padding: 3px 8px; text-align: right; border-bottom: 1px solid #eee; white-space: nowrap; }
th { background: #f4f4f4; font-weight: 600; }
td.name, th.name, td.case { text-align: left; }
td.case { font-weight: 600; color: #444; }
tr.baseline td { color: #555; }
tr.reuse td { background: #eef6fb; }
tr.invalid td { color: #999; text-decoration: line-through; }
tr.invalid td.name { text-decoration: none; }
.role { font-size: 11px; color: #777; margin-left: 6px; }
.verdict { font-size: 13px; margin: 2px 0 2px 4px; }
.verdict.met::before { content: "✓ "; color: #1a7f37; font-weight: bold; }
.verdict.notmet::before { content: "✗ "; color: #c00; font-weight: bold; }
.verdict.info::before { content: "ℹ "; color: #0072b2; }
.verdict.noise::before { content: "≈ "; color: #b26b00; font-weight: bold; }
.check { font-size: 13px; color: #c00; margin: 2px 0 2px 4px; }
.check.unsteady { color: #b26b00; }
.check.unsteady::before { content: "~ "; font-weight: bold; }
.finding { border-left: 4px solid #d55e00; background: #fff7f0; padding: 8px 12px; margin: 8px 0; font-size: 14px; }
.finding b { color: #d55e00; }
.evidence { color: #555; font-size: 13px; font-family: ui-monospace, monospace; word-break: break-word; }
.published { color: #666; font-size: 12px; }
.note { font-size: 13px; color: #555; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
svg { max-width: 100%; height: auto; }
.summary { background: #f6f8fa; border: 1px solid #e3e6ea; border-radius: 6px; padding: 8px 16px; }
.summary li { margin: 4px 0; }
dl.legend dt { font-weight: 600; margin-top: 6px; }
dl.legend dd { margin: 0 0 0 16px; font-size: 14px; color: #444; }
@media (max-width: 640px) {
  body { padding: 12px 10px 32px; }
  h1 { font-size: 21px; }
  h2 { font-size: 18px; }
  figure { padding: 4px; margin: 8px 0 16px; }
  table { font-size: 12px; }
  th, td { padding: 2px 5px; }
}
</style>
</head>
<body>
<h1>reuse report: the classic sync.Pool workloads, measured here</h1>
<div class="summary">
<p><b>Measured:</b> {{.Summary.What}}.</p>
<p><b>Where:</b> {{.Summary.Where}}; started {{.R.Started.Format "2006-01-02 15:04 MST"}}.</p>
<p><b>Findings:</b></p>
<ul>{{range .Summary.Findings}}<li>{{.}}</li>{{end}}</ul>
</div>
<p class="note">Each workload runs in up to four variants: <b>baseline</b> (fresh allocation), <b>sync.Pool</b> as the write-ups write it (their pitfalls included), <b>sync.Pool written correctly</b> where that code has a bug, and <b>reuse</b>. A variant's figures count only if its output equals the baseline's and no op failed. Times per op are the median of the rounds (one per pass over the workloads, each on a fresh instance with an empty pool{{if .R.Processes}}, each pass in a process of its own{{end}}), with the quartiles as error bars: wall-clock time, and process CPU time (all threads, so the garbage collector's work counts), which stays steady on a loaded machine. Speedup is the baseline's time divided by the variant's, round by round, from {{if eq .R.Timing "cpu"}}CPU{{else}}wall-clock{{end}} time: the median, with its 95% interval as the error bar. "published" is the write-ups' ratio, measured on other machines with older Go, so only ratios compare. allocs/op and GC/op are exact fractions over every op measured; "first" is the allocations of the very first op. The legend at the end defines every word of the verdicts.</p>

<h2>At a glance</h2>
<figure>{{.Speedup}}
<figcaption>The published bar is the write-ups' ratio for the pooled code. Error bars are 95% intervals. Where the usual sync.Pool code is correct, there is no separate bar for the correct one. A variant whose output or errors failed the check has no bar.</figcaption></figure>
{{range .Curves}}<figure>{{.}}
<figcaption>Median time per op, with the quartiles of the rounds as error bars. Allocation grows with size; a pool's Get and Put do not. Below the crossover, allocating is cheaper than pooling (pitfall P8).</figcaption></figure>{{end}}
{{range .Retained}}<figure>{{.}}
<figcaption>The heap a fresh instance of each variant keeps after its requests and one garbage collection: what a pool holds on to between bursts (pitfall P7).</figcaption></figure>{{end}}

{{if .Sweep}}<h2>Does pooling still pay on my service? (GC sweep)</h2>
<p class="note">The same workloads measured again under each GOGC, with a live heap of pointer-holding ballast beside them, as a service's own data would be: the collector then runs more often (low GOGC) or has more to mark (large heap), and a pool is emptied by each collection (pitfall P6).</p>
{{range .Sweep}}<figure>{{.}}
<figcaption>Geometric mean over the workload's cases of reuse's median speedup against fresh allocation; bars are the geometric means of the cases' 95% interval bounds.</figcaption></figure>{{end}}{{end}}

<h2>Pitfalls found in this run</h2>
{{range .Findings}}<div class="finding"><b>{{.Pitfall}}</b> in {{.ID}} {{.Name}}, <i>{{.Variant}}</i>: {{.Message}}.<div class="evidence">{{.Evidence}}</div></div>
{{else}}<p class="note">None.</p>
{{end}}

<h2>Workloads</h2>
{{range .R.Workloads}}
<h3 id="{{lower .ID}}">{{.ID}} {{.Name}}</h3>
<p class="op">One op: {{.Op}}.</p>
<p class="op">Claim tested: {{.Claim}}</p>
<p class="published">Published: {{.Source}}</p>
<div class="scroll"><table>
<tr><th class="name">case</th><th class="name">variant</th><th>wall/op</th><th>CPU/op</th><th>B/op</th><th>allocs/op</th><th>first</th><th>GC/op</th><th>speedup</th><th>published</th></tr>
{{range $c := .Cases}}{{range $i, $v := .Variants}}<tr class="{{if eq $v.Role "reuse"}}reuse{{else if eq $v.Role "baseline"}}baseline{{end}}{{if not $v.Valid}} invalid{{end}}">
{{if first $i}}<td class="case" rowspan="{{rows $c}}">{{$c.Name}}</td>{{end}}<td class="name">{{$v.Name}}<span class="role">{{$v.Role}}</span></td><td>{{duration $v.NsMedian}}</td><td>{{if $v.CPUNsPerOp}}{{duration $v.CPUNsMedian}}{{else}}—{{end}}</td><td>{{bytes $v.BytesPerOp}}</td><td>{{fraction $v.AllocsPerOp}}</td><td>{{fraction (float $v.FirstAllocs)}}</td><td>{{fraction $v.GCsPerOp}}</td><td>{{speedupCI $v}}</td><td>{{pub $v}}</td></tr>
{{end}}{{end}}</table></div>
{{range .Cases}}{{$st := .Verdict.Headline.Status}}{{range $i, $l := verdict .}}<div class="verdict {{if first $i}}{{statusClass $st}}{{else}}info{{end}}">{{$l}}</div>{{end}}
{{range .Variants}}{{if not .Valid}}<div class="check">{{.Name}}: {{.Check}}</div>{{end}}{{if .Unsteady}}<div class="check unsteady">{{.Name}}: {{.Unsteady}}</div>{{end}}{{end}}{{end}}
{{range .Findings}}<div class="finding"><b>{{.Pitfall}}</b> <i>{{.Variant}}</i>: {{.Message}}.<div class="evidence">{{.Evidence}}</div></div>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
{{end}}
<h2>Legend</h2>
<dl class="legend">{{range legend}}<dt>{{.Term}}</dt><dd>{{.Meaning}}.</dd>{{end}}</dl>
<p class="note">Made by <code>go run ./cmd/reuse -html FILE</code>. The page is self-contained: no script, no font or image loaded from anywhere.</p>
</body>
</html>
`))
