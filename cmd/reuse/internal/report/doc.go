// Package report measures the classic sync.Pool workloads (see
// docs/WORKLOADS.md) in up to four variants each: fresh allocation,
// sync.Pool as the write-ups write it, sync.Pool written correctly where
// that code has a bug, and reuse. It detects the pitfalls of the usual code
// (docs/PITFALLS.md) from evidence gathered in the same run, gives each case
// a verdict computed from the measurement, and writes the result as a
// terminal table, JSON or one self-contained HTML page. Command reuse
// (cmd/reuse) is its front end.
//
// # How a variant is measured
//
// Each variant is a fresh Op with its own pool. Its very first call is
// measured alone (first-call allocations, pitfall P5). Its output is then
// compared with the baseline's; a variant whose output differs, or whose ops
// return errors (pitfall P1), is reported but its figures do not count. The
// number of ops per round is calibrated, then the variants of a case run in
// interleaved rounds, so load from other processes spreads over all of them.
// Each round is timed twice: wall-clock time and the process's CPU time (all
// threads, so the collector's background work counts). Speedups use CPU time
// where the platform can read it (Report.Timing says which): on a machine
// shared with other work, wall time per op varies several-fold with the load
// while CPU time does not. Allocations, bytes and GCs are exact totals over
// every op measured, divided by the op count. Nothing calls runtime.GC
// between rounds: a collection empties sync.Pool (pitfall P6), and the GCs a
// variant causes are part of its cost.
//
// # How a verdict is reached
//
// Time per op is the median over rounds, with its quartiles. A speedup is
// one variant's time over another's in the same round, so that load, which
// hits both alike, cancels; its figure is the median of those per-round
// ratios and its interval a distribution-free 95% confidence interval from
// their order statistics. The verdict of a comparison follows from the
// interval alone: "faster" when it lies above 1, "slower" below, "same
// within noise" when it holds 1, "too few rounds" when there are fewer than
// five. The headline compares reuse with sync.Pool written correctly; reuse
// against fresh allocation is set against the published ratio, which is
// "reproduced" when the interval reaches it. Notes are computed from the
// figures, never written ahead of them. Legend lists every word.
//
// # Ownership
//
// Run returns a Report the caller owns. The pools inside the variants live
// for one measurement and are dropped with it.
//
// # Concurrency
//
// Run measures one variant at a time and must not run concurrently with
// anything that allocates heavily: allocation counts come from
// runtime.ReadMemStats and include every goroutine. The detectors start
// their own goroutines and wait for them.
//
// # When not to pool
//
// The report exists to answer this per workload, on the machine it runs on:
// a workload with a Curve gets a note with the size from which pooling pays
// (pitfall P8).
package report
