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
// A run is a number of passes over the selected workloads (Options.Rounds:
// 9 by default), and each variant is measured for one round in each pass.
// In a pass, each variant of a case is built afresh, as a new Op with its
// own empty pool, warmed up and calibrated, and measured for one round,
// the variants of a case one after the other, in an order that turns with
// each pass. Command reuse runs each pass in a process of its own
// (Options.Exec, ServePass). So the rounds of a variant differ in
// everything a second run of the report would change: the collector's
// state, the round size the calibration chose, where its values and its
// pools' per-P state lie in memory, and the load of the machine over the
// run.
//
// The very first call of the first instance is measured alone
// (first-call allocations, pitfall P5). Each instance's output is compared
// with the baseline's; a variant whose output differs, or whose ops return
// errors (pitfall P1), is reported but its figures do not count. The
// calibration runs growing batches for a quarter of a round; the first op
// of an instance, which fills its pool (and may meet a collection that
// empties it), never sets the round size. A round runs in slices of at
// most 4 ms, each after a yield and one untimed op: the scheduler preempts
// a goroutine that has run for 10 ms, which may then go on on another P,
// whose share of a pool is empty. Each slice is timed twice: wall-clock
// time and the process's CPU time (all threads, so the collector's
// background work counts). Speedups use CPU time where the platform can
// read it (Report.Timing says which): on a machine shared with other work,
// wall time per op varies several-fold with the load while CPU time does
// not. Allocations, bytes and GCs are exact totals over the ops of the
// rounds (the untimed ones included), divided by their count. Nothing
// calls runtime.GC between rounds: a collection empties sync.Pool
// (pitfall P6), and the GCs a variant causes are part of its cost.
//
// The report counts the misses of the pools it can see (the ops whose Get
// found nothing, so that the op allocated afresh) and the values a
// variant let go instead of giving them back. A variant whose pool missed
// though nothing was dropped in more than MaxMissRate of its timed ops is
// marked (Variant.Unsteady) on the page and in the JSON: its figures
// measure fresh allocation as much as the pool, and its comparisons never
// make the summary's largest gain or loss.
//
// # How a verdict is reached
//
// Time per op is the median over rounds, with its quartiles. A speedup is
// one variant's time over another's in the same pass, so that load, which
// hits both alike, cancels; its figure is the median of those per-round
// ratios and its interval a distribution-free 95% confidence interval from
// their order statistics. Since each round comes from its own pass, on its
// own instance, the interval covers what a rerun would see, not only the
// spread within one run: for rounds drawn alike, by simulation, the
// interval over 9 rounds holds the median in 96% of runs, and the
// intervals of two runs are disjoint for about 1 verdict in 300 (`reuse
// compare -agree` checks two real runs). The verdict of a comparison
// follows from the interval alone: "faster" when it lies above 1, "slower"
// below, "same within noise" when it holds 1, "too few rounds" when there
// are fewer than five. The headline compares reuse with sync.Pool written
// correctly; the published ratio is set against the same code run here
// (the row that runs the write-up's code, pitfalls included, or reuse
// where none does) against fresh allocation, by direction first:
// "reproduced" when the interval lies on the published ratio's side of 1
// (the pool faster than fresh allocation, or slower) and reaches it,
// "reproduced, smaller here" when it falls short on that side, "not confirmed here" when it holds 1, "contradicted here"
// when it lies on the other side. The summary
// names the largest gain and loss with the cases whose intervals reach
// theirs, which the run cannot tell apart from them, and after the
// headline what chance alone gives in its counts: where each round's ratio
// is as likely above 1 as below, a case reads "slower" with probability
// (1 - Confidence)/2, 1.95% for 9 rounds, so 39 cases give 0.8 on average
// and 2 or fewer in 95 runs of 100 (Chance). Notes are computed
// from the figures, never written ahead of them. Legend lists every word.
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
// runtime.ReadMemStats and include every goroutine. With Options.Exec it
// starts one process per pass and waits for it before the next. The
// detectors start their own goroutines and wait for them.
//
// # When not to pool
//
// The report exists to answer this per workload, on the machine it runs on:
// a workload with a Curve gets a note with the size from which pooling pays
// (pitfall P8).
package report
