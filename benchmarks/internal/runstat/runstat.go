// Package runstat holds what the benchmark commands (cmd/userview,
// cmd/httpe2e, cmd/disttable) share to summarize their rounds and describe
// the machine they ran on.
package runstat

import (
	"os"
	"slices"
	"strings"
)

// Median returns the median of xs (the mean of the middle two when there
// are an even number), 0 for none; xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// MedianOf returns the median of f over rs: one figure of a set of
// results, each figure taken on its own.
func MedianOf[R any](rs []R, f func(R) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	return Median(xs)
}

// LoadAvg returns the first three fields of /proc/loadavg, or "unknown".
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
