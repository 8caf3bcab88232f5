package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reuse-go/reuse/cmd/reuse/internal/chart"
)

// SweepPoint is one workload measured under one GC setting: how much reuse
// gains over fresh allocation there.
type SweepPoint struct {
	Workload string `json:"workload"` // "W9 gzip"
	GC       GC     `json:"gc"`
	// Speedup is the geometric mean over the workload's cases of reuse's
	// median speedup against fresh allocation; Low and High the geometric
	// means of the cases' interval bounds.
	Speedup float64 `json:"speedup"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	// BaselineGCs is the collections per op of fresh allocation: how hard
	// the setting makes the collector work.
	BaselineGCs float64 `json:"baseline_gcs_per_op"`
}

// SweepGOGC and SweepBallast are the settings of a GC sweep: GOGC values
// and live heaps held beside the workload, from a small program to a
// service with a heap to mark on every cycle.
var (
	SweepGOGC    = []int{25, 100, 400}
	SweepBallast = []int{0, 32 << 20, 128 << 20}
)

// SweepBudget bounds the rounds of a whole sweep; the collections, the
// ballast and the calibration add to it.
const SweepBudget = 60 * time.Second

// Sweep measures the workloads opt selects under every combination of
// SweepGOGC and SweepBallast, with short rounds within SweepBudget, and
// returns one point per workload and setting. progress, if non-nil, is
// called before each setting.
func Sweep(opt Options, progress func(i, n int, g GC)) []SweepPoint {
	n := len(SweepGOGC) * len(SweepBallast)
	opt.Round, opt.Rounds, opt.Budget, opt.Progress = 5*time.Millisecond, 5, SweepBudget/time.Duration(n), nil
	// The passes run here: a process of their own would build the live
	// heap of up to 128 MiB again for each.
	opt.Exec = ""
	var out []SweepPoint
	i := 0
	for _, ballast := range SweepBallast {
		for _, gogc := range SweepGOGC {
			opt.GOGC, opt.Ballast = gogc, ballast
			if progress != nil {
				progress(i, n, GC{GOGC: gogc, Ballast: ballast})
			}
			i++
			r := Run(opt)
			for _, w := range r.Workloads {
				out = append(out, sweepPoint(w, r.GC))
			}
		}
	}
	return out
}

func sweepPoint(w Workload, g GC) SweepPoint {
	p := SweepPoint{Workload: w.ID + " " + w.Name, GC: g}
	var lm, ll, lh, gcs float64
	n := 0
	for _, c := range w.Cases {
		b := c.Verdict.Baseline
		if b.Status == StatusInvalid || b.Speedup.Median <= 0 || b.Speedup.Low <= 0 {
			continue
		}
		lm += math.Log(b.Speedup.Median)
		ll += math.Log(b.Speedup.Low)
		lh += math.Log(b.Speedup.High)
		gcs += c.Variants[0].GCsPerOp
		n++
	}
	if n > 0 {
		k := float64(n)
		p.Speedup, p.Low, p.High, p.BaselineGCs = math.Exp(lm/k), math.Exp(ll/k), math.Exp(lh/k), gcs/k
	}
	return p
}

// WriteSweep writes a sweep as a table: one row per workload and live heap,
// one column per GOGC.
func WriteSweep(b *strings.Builder, pts []SweepPoint) {
	if len(pts) == 0 {
		return
	}
	b.WriteString("\nGC sweep: reuse's speedup against fresh allocation (geometric mean over the workload's\n")
	b.WriteString("cases) under each GOGC, with a live heap of pointer-holding ballast beside the workload.\n")
	fmt.Fprintf(b, "  %-32s %9s", "workload", "live heap")
	for _, g := range SweepGOGC {
		fmt.Fprintf(b, " %9s", fmt.Sprintf("GOGC=%d", g))
	}
	b.WriteByte('\n')
	for _, w := range sweepWorkloads(pts) {
		for _, bal := range SweepBallast {
			fmt.Fprintf(b, "  %-32s %9s", clip(w, 32), Bytes(float64(bal))+"B")
			for _, g := range SweepGOGC {
				cell := "—"
				for _, p := range pts {
					if p.Workload == w && p.GC.Ballast == bal && p.GC.GOGC == g && p.Speedup > 0 {
						cell = Ratio(p.Speedup)
					}
				}
				fmt.Fprintf(b, " %9s", cell)
			}
			b.WriteByte('\n')
		}
	}
}

func sweepWorkloads(pts []SweepPoint) []string {
	var ws []string
	seen := map[string]bool{}
	for _, p := range pts {
		if !seen[p.Workload] {
			seen[p.Workload] = true
			ws = append(ws, p.Workload)
		}
	}
	return ws
}

// SweepCharts draws, per workload, reuse's speedup against GOGC, one line
// per live heap, with the cases' interval bounds as error bars.
func SweepCharts(pts []SweepPoint) []chart.LineChart {
	var out []chart.LineChart
	for _, w := range sweepWorkloads(pts) {
		c := chart.LineChart{
			Title:  w + ": reuse's speedup against fresh allocation by GOGC and live heap",
			XLabel: "GOGC (log scale)",
			YLabel: "speedup ×",
			LogX:   true,
			LogY:   true,
			Width:  1000,
			Height: 360,
		}
		for _, g := range SweepGOGC {
			c.XTicks = append(c.XTicks, chart.Tick{At: float64(g), Label: fmt.Sprint(g)})
		}
		for _, bal := range SweepBallast {
			l := chart.Line{Name: "live heap " + Bytes(float64(bal)) + "B"}
			for _, p := range pts {
				if p.Workload == w && p.GC.Ballast == bal {
					y := math.NaN()
					if p.Speedup > 0 {
						y = p.Speedup
					}
					l.Points = append(l.Points, chart.Point{X: float64(p.GC.GOGC), Y: y, YLow: p.Low, YHigh: p.High})
				}
			}
			c.Series = append(c.Series, l)
		}
		out = append(out, c)
	}
	return out
}
