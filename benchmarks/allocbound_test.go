package benchmarks

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// The allocation bound: how few bytes could any pool allocate in one pass
// through a workload's lengths, from a cold start, while keeping the
// capacity of its buffers at Put within boundCapW times what is written (the
// one-pass table's cap/written)? The issue asks bytebuf for both: bytes
// allocated per op at most the best peer's, and capacity/written at most 1.5.
//
// Every capacity a buffer has at a Put is that of an array allocated during
// the pass, since the pool starts with none. So a pool that puts buffers back
// with the set C of distinct capacities allocated at least the sum of C. The
// least sum over all the sets C that can hold every length (each length in
// the smallest member of C at or above it) with capacities summing to at
// most boundCapW times the bytes written is a lower bound on any pool's
// bytes allocated in the pass, whatever its classes, growth or foresight. It
// ignores the copies and the buffers in flight at once, which only add.
//
// minAllocBound computes a lower bound of that least sum: the lengths are
// rounded down to 64 steps per doubling (which can only lower the least sum,
// as the budget of capacity stays that of the true lengths), and the
// constrained minimum is bounded below by its Lagrangian dual, found by
// dynamic programming over the rounded lengths for each price of capacity
// (allocDP) and maximised over the price. Weak duality makes every price's
// value a valid bound.

// allocGridBits is how many bits of a length the rounding keeps: 64 steps
// per doubling.
const allocGridBits = 7

// roundDown rounds n down to allocGridBits significant bits.
func roundDown(n int) int {
	k := max(bits.Len(uint(n))-allocGridBits, 0)
	return n >> k << k
}

// allocDP returns, for the distinct lengths vals (sorted, ascending) with
// their counts, the set of capacities that minimises sum(C) + lam·capacity,
// where capacity is the sum over the lengths of the member of C that holds
// each: its sum, the capacity, and the chosen members. A member of an
// optimal C is one of vals (lowering it to the longest length it holds
// lowers both terms), and the lengths it holds are those after the member
// below it, so the choice is a partition of vals into runs, each held by its
// last value.
func allocDP(vals []int, counts []int64, lam float64) (sum, capacity int64, members []int) {
	m := len(vals)
	prefix := make([]int64, m+1) // prefix[j]: lengths among vals[:j]
	for j, c := range counts {
		prefix[j+1] = prefix[j] + c
	}
	f := make([]float64, m+1) // f[j]: least cost of vals[:j]
	from := make([]int, m+1)
	for b := 1; b <= m; b++ {
		v := float64(vals[b-1])
		f[b] = math.Inf(1)
		for a := range b {
			if c := f[a] + v + lam*v*float64(prefix[b]-prefix[a]); c < f[b] {
				f[b], from[b] = c, a
			}
		}
	}
	for b := m; b > 0; b = from[b] {
		v := vals[b-1]
		members = append(members, v)
		sum += int64(v)
		capacity += int64(v) * (prefix[b] - prefix[from[b]])
	}
	slices.Reverse(members)
	return sum, capacity, members
}

// allocBound is what minAllocBound finds for one workload: the lower bound
// on the bytes allocated, and the best set of capacities the search met
// that fits the budget, with its sum (an upper bound on the least sum for
// the rounded lengths, so the gap between the two shows how tight the bound
// is).
type allocBound struct {
	lower   float64
	planSum int64
	plan    []int
}

// minAllocBound returns the allocation bound of lengths at capacity/written
// bound.
func minAllocBound(lengths []int, bound float64) allocBound {
	var written int64
	count := map[int]int64{}
	for _, n := range lengths {
		written += int64(n)
		count[roundDown(n)]++
	}
	vals := make([]int, 0, len(count))
	for v := range count {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	counts := make([]int64, len(vals))
	for j, v := range vals {
		counts[j] = count[v]
	}
	budget := bound * float64(written)

	r := allocBound{lower: math.Inf(-1), planSum: math.MaxInt64}
	eval := func(lam float64) float64 {
		sum, capacity, members := allocDP(vals, counts, lam)
		if float64(capacity) <= budget && sum < r.planSum {
			r.planSum, r.plan = sum, members
		}
		lb := float64(sum) + lam*(float64(capacity)-budget)
		r.lower = max(r.lower, lb)
		return lb
	}
	// The dual is concave in lam: scan a logarithmic grid of prices, then
	// refine around the best by golden-section search.
	best, bestLam := eval(0), 0.0
	lams := []float64{0}
	for e := -14.0; e <= 2; e += 0.25 {
		lam := math.Pow(10, e)
		lams = append(lams, lam)
		if v := eval(lam); v > best {
			best, bestLam = v, lam
		}
	}
	i := slices.Index(lams, bestLam)
	lo, hi := lams[max(i-1, 0)], lams[min(i+1, len(lams)-1)]
	const phi = 0.6180339887498949
	for range 60 {
		a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
		if eval(a) < eval(b) {
			lo = a
		} else {
			hi = b
		}
	}
	return r
}

// bruteAlloc returns the least sum of a set of capacities that holds every
// length within the budget, by trying every set of the lengths themselves
// (a member of an optimal set is one of them), without rounding: the true
// least sum, for few lengths only.
func bruteAlloc(lengths []int, bound float64) int64 {
	var written int64
	for _, n := range lengths {
		written += int64(n)
	}
	vals := slices.Compact(slices.Sorted(slices.Values(lengths)))
	best := int64(math.MaxInt64)
	for set := 1 << (len(vals) - 1); set < 1<<len(vals); set++ { // the longest length needs a member
		var sum, capacity int64
		for j, v := range vals {
			if set>>j&1 == 1 {
				sum += int64(v)
			}
		}
		for _, n := range lengths {
			for j, v := range vals {
				if set>>j&1 == 1 && v >= n {
					capacity += int64(v)
					break
				}
			}
		}
		if float64(capacity) <= bound*float64(written) {
			best = min(best, sum)
		}
	}
	return best
}

// TestMinAllocBound checks the bound on an example worked by hand and
// against every set of capacities on small random ones: it never exceeds
// the true least sum (or it would not be a bound), and the plan it returns
// fits the budget and costs what it says.
func TestMinAllocBound(t *testing.T) {
	// Nine lengths of 100 and one of 1000, written 1900 bytes: within 1.5
	// (2850) the capacities must be {100, 1000}, sum 1100, capacity 1900;
	// {1000} alone would hold 10000. The dual's best price is where the
	// two sets cost the same, 1000+7150·lam = 1100-950·lam: lam = 1/81,
	// a bound of 1000+7150/81 = 1088.27.
	lengths := []int{1000, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	r := minAllocBound(lengths, 1.5)
	if math.Abs(r.lower-(1000+7150.0/81)) > 0.01 || r.planSum != 1100 || !slices.Equal(r.plan, []int{100, 1000}) {
		t.Errorf("hand-worked: got bound %.2f, plan %v (sum %d); want 1088.27, [100 1000] (1100)", r.lower, r.plan, r.planSum)
	}
	// The same lengths within 6: {1000} alone fits, and the bound is tight.
	if r := minAllocBound(lengths, 6); r.lower != 1000 || r.planSum != 1000 {
		t.Errorf("hand-worked, bound 6: got %.2f, plan sum %d; want 1000, 1000", r.lower, r.planSum)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		lengths := make([]int, 1+rng.IntN(12))
		for i := range lengths {
			lengths[i] = 1 + int(math.Exp(rng.Float64()*12))
		}
		bound := 1 + rng.Float64()*2
		r := minAllocBound(lengths, bound)
		opt := bruteAlloc(lengths, bound)
		if r.lower > float64(opt)+1e-6 {
			t.Fatalf("trial %d: bound %.2f above the least sum %d (lengths %v, within %.2f)", trial, r.lower, opt, lengths, bound)
		}
		if r.planSum == math.MaxInt64 || float64(r.planSum) < r.lower-1e-6 {
			t.Fatalf("trial %d: plan sum %d, bound %.2f: no plan found, or one below the bound (lengths %v)", trial, r.planSum, r.lower, lengths)
		}
	}
}

// BenchmarkDistAllocBound reports, for each workload, the least bytes per op
// any pool can allocate in one pass from a cold start within
// capacity/written 1.5 (min-B/op, a lower bound), and what the best set of
// capacities found allocates (plan-B/op). Compare with the B/op of the
// one-pass table and the cold-B/op of BenchmarkDistCopies. Nothing is
// timed.
//
//	go test -run '^$' -bench DistAllocBound -benchtime 1x
func BenchmarkDistAllocBound(b *testing.B) {
	for _, wl := range distWorkloads {
		b.Run("workload="+wl.name, func(b *testing.B) {
			for b.Loop() {
			}
			r := minAllocBound(wl.lengths, boundCapW)
			n := float64(len(wl.lengths))
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(r.lower/n, "min-B/op")
			b.ReportMetric(float64(r.planSum)/n, "plan-B/op")
			b.ReportMetric(float64(len(r.plan)), "plan-sizes")
		})
	}
}
