package report_test

import (
	"strings"
	"testing"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
	"github.com/reuse-go/reuse/internal/cputime"
	"github.com/reuse-go/reuse/reusetest"
)

// BenchmarkWorkloads runs every variant of every workload as a benchmark,
// named w=ID/case/v=variant for benchstat: compare the variants of a case
// with `benchstat -col /v`; cpu-ns/op is the steady figure on a shared
// machine. A variant whose ops fail (W10's drained input,
// pitfall P1) reports errors/op instead of failing.
func BenchmarkWorkloads(b *testing.B) {
	for _, d := range report.Defs() {
		b.Run("w="+d.ID, func(b *testing.B) {
			for _, c := range d.Cases {
				name := c.Name
				if name == "" {
					name = "case=one"
				} else if !strings.Contains(name, "=") {
					name = "case=" + name
				}
				b.Run(name, func(b *testing.B) {
					for _, v := range c.Variants {
						b.Run("v="+slug(v), func(b *testing.B) { bench(b, v) })
					}
				})
			}
		})
	}
}

func slug(v report.VariantDef) string {
	if v.Role != report.RoleOther {
		return v.Role
	}
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.':
			return r
		}
		return '-'
	}, v.Name)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	return strings.Trim(s, "-")
}

func bench(b *testing.B, v report.VariantDef) {
	op := v.New()
	var errs int
	if v.Parallel {
		defer reusetest.ReportAllocs(b)()
		defer cputime.Report(b)()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if op(nil) != nil {
					b.Error("op failed") // no parallel variant is expected to fail
				}
			}
		})
		return
	}
	done := reusetest.ReportAllocs(b)
	cpu := cputime.Report(b)
	for b.Loop() {
		if op(nil) != nil {
			errs++
		}
	}
	cpu()
	done()
	if errs > 0 {
		b.ReportMetric(float64(errs)/float64(b.N), "errors/op")
	}
}
