package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSlicesTable: -slices reads BenchmarkSlicesDist lines (dist=, not
// workload=), takes medians per shape, mode and P, and divides reuse's time
// by libp2p's.
func TestSlicesTable(t *testing.T) {
	in := `BenchmarkSlicesDist/dist=pareto/mode=serial/impl=libp2p-16   100  40.0 ns/op  8 B/op  0 allocs/op
BenchmarkSlicesDist/dist=pareto/mode=serial/impl=reuse-16    100  30.0 ns/op  12 B/op  0 allocs/op
BenchmarkSlicesDist/dist=pareto/mode=serial/impl=libp2p-16   100  40.0 ns/op  8 B/op  0 allocs/op
BenchmarkSlicesDist/dist=pareto/mode=serial/impl=reuse-16    100  50.0 ns/op  12 B/op  0 allocs/op
BenchmarkSlicesDist/dist=pareto/mode=serial/impl=reuse-16    100  20.0 ns/op  12 B/op  0 allocs/op
BenchmarkSlicesDist/dist=pareto/mode=serial/impl=libp2p-16   100  40.0 ns/op  8 B/op  0 allocs/op
BenchmarkDist/workload=pareto/mode=serial/impl=bytebuf-16    100  99.0 ns/op
`
	samples, order, err := parse(strings.NewReader(in), "BenchmarkSlicesDist/")
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != 1 || order[0] != (key{workload: "pareto", mode: "serial", procs: 16}) {
		t.Fatalf("groups = %v, want one: pareto, serial, 16 Ps", order)
	}
	var buf bytes.Buffer
	slicesTable(&buf, order, medianOf(samples))
	want := "| pareto | serial | 16 | 30 ns, 40 ns | 0.75 | 12, 8 |"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table:\n%s\nwant the row %q", buf.String(), want)
	}
}

// TestParseDist: the default prefix reads BenchmarkDist lines only.
func TestParseDist(t *testing.T) {
	in := `BenchmarkDist/workload=drift/mode=parallel/impl=bytebuf-4  100  99.0 ns/op  1.5 cap/written
BenchmarkSlicesDist/dist=drift/mode=parallel/impl=reuse-4  100  30.0 ns/op
`
	samples, order, err := parse(strings.NewReader(in), "BenchmarkDist/")
	if err != nil {
		t.Fatal(err)
	}
	k := key{workload: "drift", mode: "parallel", impl: "bytebuf", procs: 4}
	if len(order) != 1 || samples[k]["cap/written"][0] != 1.5 {
		t.Errorf("groups %v, samples %v: want drift, parallel, 4 Ps with cap/written 1.5", order, samples)
	}
}

// TestPairedTable: -paired reads x-base from both paired benchmarks, by
// workload and peer (Slices' rows as the peer "slices"), with the median of
// the runs and their range.
func TestPairedTable(t *testing.T) {
	in := `BenchmarkDistPaired/workload=tight/peer=syncpool-16   200  40 base-ns/op  50 ours-ns/op  1.25 x-base  1.2 x-base-p25  1.3 x-base-p75
BenchmarkDistPaired/workload=tight/peer=syncpool-16   200  40 base-ns/op  50 ours-ns/op  1.35 x-base  1.2 x-base-p25  1.4 x-base-p75
BenchmarkDistPaired/workload=tight/peer=syncpool-16   200  40 base-ns/op  50 ours-ns/op  1.30 x-base  1.2 x-base-p25  1.4 x-base-p75
BenchmarkSlicesDistPaired/dist=tight   200  40 base-ns/op  30 ours-ns/op  0.75 x-base  0.7 x-base-p25  0.8 x-base-p75
BenchmarkDist/workload=tight/mode=serial/impl=bytebuf   100  99.0 ns/op
`
	var buf bytes.Buffer
	if err := pairedTable(strings.NewReader(in), &buf); err != nil {
		t.Fatal(err)
	}
	want := "| tight | 1.30 (1.25-1.35) | - | - | - | 0.75 (0.75-0.75) |"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("table:\n%s\nwant the row %q", buf.String(), want)
	}
	if err := pairedTable(strings.NewReader("BenchmarkDist/workload=tight/mode=serial/impl=bytebuf 1 2 ns/op\n"), &buf); err == nil {
		t.Error("no paired lines: want an error")
	}
}

// TestBeforeTable: -before divides bytebuf's medians before and after by the
// best peer's of the new results, and counts the rows within each target.
func TestBeforeTable(t *testing.T) {
	after := `BenchmarkDist/workload=tight/mode=serial/impl=syncpool-4   100  100 ns/op  9 cap/written  0 B/op
BenchmarkDist/workload=tight/mode=serial/impl=libp2p-4     100  80 ns/op   2 cap/written  4 B/op
BenchmarkDist/workload=tight/mode=serial/impl=bytebuf-4    100  84 ns/op   1.4 cap/written  2 B/op
BenchmarkDist/workload=tight/mode=serial/impl=bytebuf-4    100  86 ns/op   1.4 cap/written  2 B/op
`
	before := `BenchmarkDist/workload=tight/mode=serial/impl=bytebuf-4    100  120 ns/op   1.6 cap/written  0 B/op
`
	samples, order, err := parse(strings.NewReader(after), "BenchmarkDist/")
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := parse(strings.NewReader(before), "BenchmarkDist/")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	beforeTable(&buf, order, medianOf(samples), medianOf(old))
	for _, want := range []string{
		"| tight | serial | 4 | 1.50, 1.06 | 1.60, 1.40 | 0, 2, 0 |",
		"of 1: time at most 1.10 times the best peer's 0 and 1; B/op at most the best peer's 1 and 0; capacity/written at most 1.5 0 and 1.",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table:\n%s\nwant %q", buf.String(), want)
		}
	}
}
