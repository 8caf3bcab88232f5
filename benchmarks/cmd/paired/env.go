package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// envLine names the Go version, the CPU and the load, for the table.
func envLine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				cpu = strings.TrimSpace(l[strings.Index(l, ":")+1:])
				break
			}
		}
	}
	return fmt.Sprintf("%s, %s, %d cores", runtime.Version(), cpu, runtime.NumCPU())
}

// load returns the 1-minute load average, "" where it is unknown.
func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b))[0]
}

// loadRange gives the lowest and highest of loads, "unknown" when empty.
func loadRange(loads []string) string {
	var v []float64
	for _, l := range loads {
		if f, err := strconv.ParseFloat(l, 64); err == nil {
			v = append(v, f)
		}
	}
	if len(v) == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.1f–%.1f", slices.Min(v), slices.Max(v))
}
