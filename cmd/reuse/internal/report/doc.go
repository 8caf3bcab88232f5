// Package report measures the classic sync.Pool workloads W1–W11 (see
// docs/WORKLOADS.md) in three variants each, fresh
// allocation, sync.Pool as the write-ups write it, and reuse, detects the
// pitfalls P1–P4 and P7 in the usual code from evidence gathered in the same
// run, and writes the result as a terminal table, JSON or one self-contained
// HTML page. Command reuse (cmd/reuse) is its front end.
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
// while CPU time does not. Time per op is the fastest round's, because such
// load only ever adds time; the median is kept beside it, and their gap is
// reported as the noise that decides whether a missed published ratio is
// "within noise". Background GC work started by one variant can land in
// another's round; taking the fastest round limits that. Allocations,
// bytes and GCs are exact totals over every op measured, divided by the op
// count. Nothing calls
// runtime.GC between rounds: a collection empties sync.Pool (pitfall P6), and
// the GCs a variant causes are part of its cost.
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
// below W1's crossover (about n = 10 to 100 elements) allocating is as cheap
// as pooling, and W4's small struct is slower to pool than to allocate, with
// the pool's gain being no garbage rather than time.
package report
