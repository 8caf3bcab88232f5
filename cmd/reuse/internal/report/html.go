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
		Speedup  template.HTML
		Curves   []template.HTML
		Findings []workloadFinding
	}{R: r, Speedup: template.HTML(SpeedupChart(r).SVG())}
	for _, c := range CurveCharts(r) {
		data.Curves = append(data.Curves, template.HTML(c.SVG()))
	}
	for _, wl := range r.Workloads {
		for _, f := range wl.Findings {
			data.Findings = append(data.Findings, workloadFinding{wl.ID, wl.Name, f})
		}
	}
	return page.Execute(w, data)
}

type workloadFinding struct {
	ID, Name string
	Finding
}

// SpeedupChart is the bar chart of every case's speedup against its
// baseline: the published pooled ratio, sync.Pool as usually written here,
// and reuse here. The cases of a curve (Workload.Curve) without a published
// ratio are left to the curve's chart.
func SpeedupChart(r Report) chart.BarChart {
	c := chart.BarChart{
		Title:  "Speedup against fresh allocation (log scale; right of the red line is faster)",
		Series: []string{"published", "sync.Pool, here", "reuse, here"},
		Log:    true,
		Unit:   "×",
		Ref:    1,
		Width:  1000,
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
			g := chart.BarGroup{Label: label, Values: []float64{math.NaN(), math.NaN(), math.NaN()}, Notes: make([]string, 3)}
			if cs.Verdict.Published > 0 {
				g.Values[0] = cs.Verdict.Published
			}
			for _, v := range cs.Variants {
				i := map[string]int{RoleSyncPool: 1, RoleReuse: 2}[v.Role]
				switch {
				case i == 0:
				case !v.Valid:
					g.Notes[i] = "✗ no figure: " + short(v.Check)
				default:
					g.Values[i] = v.Speedup
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
	for _, w := range r.Workloads {
		if w.Curve != "" && len(w.Cases) > 0 {
			out = append(out, curveChart(w, r.Timing))
		}
	}
	return out
}

func curveChart(w Workload, timing string) chart.LineChart {
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
		c.XTicks = append(c.XTicks, chart.Tick{At: x, Label: sizeName(cs.Size)})
		for _, v := range cs.Variants {
			l, ok := lines[v.Role]
			if !ok {
				l = &chart.Line{Name: v.Name}
				lines[v.Role] = l
				order = append(order, v.Role)
			}
			y := math.NaN()
			if v.Valid {
				y = v.Time()
			}
			l.Points = append(l.Points, chart.Point{X: x, Y: y})
		}
	}
	for _, role := range order {
		c.Series = append(c.Series, *lines[role])
	}
	return c
}

var funcs = template.FuncMap{
	"duration": Duration,
	"bytes":    Bytes,
	"fraction": Fraction,
	"ratio":    Ratio,
	"verdict":  VerdictLines,
	"speedup":  speedupCell,
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
.finding { border-left: 4px solid #d55e00; background: #fff7f0; padding: 8px 12px; margin: 8px 0; font-size: 14px; }
.finding b { color: #d55e00; }
.evidence { color: #555; font-size: 13px; font-family: ui-monospace, monospace; word-break: break-word; }
.published { color: #666; font-size: 12px; }
.note { font-size: 13px; color: #555; }
</style>
</head>
<body>
<h1>reuse report: the classic sync.Pool workloads, measured here</h1>
<p class="env">{{.R.GoVersion}} {{.R.GOOS}}/{{.R.GOARCH}}, GOMAXPROCS={{.R.GOMAXPROCS}}, {{.R.NumCPU}} CPUs · {{.R.Mode}} run of {{.R.Seconds}} s, started {{.R.Started.Format "2006-01-02 15:04 MST"}}</p>
<p class="note">Each workload runs in three variants: <b>baseline</b> (fresh allocation), <b>sync.Pool</b> as the write-ups write it (their pitfalls included) and <b>reuse</b>. A variant's figures count only if its output equals the baseline's and no op failed. Times per op are from the fastest of several interleaved rounds, since load from other processes only adds time: wall-clock time, and process CPU time (all threads, so the garbage collector's work counts), which stays steady on a loaded machine. Speedup is the baseline's time divided by the variant's, in this run, from {{if eq .R.Timing "cpu"}}CPU{{else}}wall-clock{{end}} time; "published" is the write-ups' ratio, measured on other machines with older Go, so only ratios compare. allocs/op and GC/op are exact fractions over every op measured; "first" is the allocations of the very first op.</p>

<h2>At a glance</h2>
<figure>{{.Speedup}}
<figcaption>The published bar is the write-ups' ratio for the pooled code, what reuse should at least match; W4 parallel has no published baseline and W11 no published figure. A variant whose output or errors failed the check has no bar.</figcaption></figure>
{{range .Curves}}<figure>{{.}}
<figcaption>Allocation grows with size; a pool's Get and Put do not. Below the crossover, allocating is cheaper than pooling (pitfall P8).</figcaption></figure>{{end}}

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
<table>
<tr><th class="name">case</th><th class="name">variant</th><th>wall/op</th><th>CPU/op</th><th>B/op</th><th>allocs/op</th><th>first</th><th>GC/op</th><th>speedup</th><th>published</th></tr>
{{range $c := .Cases}}{{range $i, $v := .Variants}}<tr class="{{if eq $v.Role "reuse"}}reuse{{else if eq $v.Role "baseline"}}baseline{{end}}{{if not $v.Valid}} invalid{{end}}">
{{if first $i}}<td class="case" rowspan="{{rows $c}}">{{$c.Name}}</td>{{end}}<td class="name">{{$v.Name}}<span class="role">{{$v.Role}}</span></td><td>{{duration $v.NsPerOp}}</td><td>{{if $v.CPUNsPerOp}}{{duration $v.CPUNsPerOp}}{{else}}—{{end}}</td><td>{{bytes $v.BytesPerOp}}</td><td>{{fraction $v.AllocsPerOp}}</td><td>{{$v.FirstAllocs}}</td><td>{{fraction $v.GCsPerOp}}</td><td>{{speedup $v}}</td><td>{{pub $v}}</td></tr>
{{end}}{{end}}</table>
{{range .Cases}}{{$st := .Verdict.Headline.Status}}{{range $i, $l := verdict .}}<div class="verdict {{if first $i}}{{statusClass $st}}{{else}}info{{end}}">{{$l}}</div>{{end}}
{{range .Variants}}{{if not .Valid}}<div class="check">{{.Name}}: {{.Check}}</div>{{end}}{{end}}{{end}}
{{range .Findings}}<div class="finding"><b>{{.Pitfall}}</b> <i>{{.Variant}}</i>: {{.Message}}.<div class="evidence">{{.Evidence}}</div></div>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
{{end}}
<h2>Legend</h2>
<dl class="legend">{{range legend}}<dt>{{.Term}}</dt><dd>{{.Meaning}}.</dd>{{end}}</dl>
<p class="note">Made by <code>go run ./cmd/reuse -html FILE</code>. The page is self-contained: no script, no font or image loaded from anywhere.</p>
</body>
</html>
`))
