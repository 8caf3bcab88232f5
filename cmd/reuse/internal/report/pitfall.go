package report

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

// DetectErrorPath runs op n times, as a benchmark loop would, and reports
// pitfall P1 when any run returns an error: the loop then times the error
// path, not the work. It returns nil when every run succeeds.
func DetectErrorPath(variant string, op func() error, n int) *Finding {
	var fails int
	var first error
	for i := 0; i < n; i++ {
		if err := op(); err != nil {
			fails++
			if first == nil {
				first = err
			}
		}
	}
	if fails == 0 {
		return nil
	}
	return &Finding{
		Pitfall:  "P1",
		Variant:  variant,
		Message:  "measures the error path: the input is drained after the first op, so later ops decompress nothing and fail",
		Evidence: fmt.Sprintf("%d of %d ops returned an error (%v)", fails, n, first),
	}
}

// DetectStale decodes docs in order with pooled, tries times over, and
// compares each result with fresh's on the same document. It reports
// pitfall P3 at the first difference: the pooled value kept a field from an
// earlier document. It returns nil when every result matches.
func DetectStale(variant string, pooled, fresh func(doc []byte) (string, error), docs [][]byte, tries int) *Finding {
	for t := 0; t < tries; t++ {
		for i, doc := range docs {
			got, err := pooled(doc)
			if err != nil {
				return &Finding{Pitfall: "P3", Variant: variant, Message: "decode failed", Evidence: err.Error()}
			}
			want, err := fresh(doc)
			if err != nil {
				return &Finding{Pitfall: "P3", Variant: variant, Message: "the fresh decode failed", Evidence: err.Error()}
			}
			if got != want && i > 0 {
				return &Finding{
					Pitfall:  "P3",
					Variant:  variant,
					Message:  "returns a stale field: a field missing from a document keeps the previous document's value",
					Evidence: fmt.Sprintf("decoding %s after %s gives %s, a fresh decode gives %s", docs[i], docs[i-1], got, want),
				}
			}
			if got != want {
				return &Finding{Pitfall: "P3", Variant: variant, Message: "returns a wrong value",
					Evidence: fmt.Sprintf("decoding %s gives %s, want %s", doc, got, want)}
			}
		}
	}
	return nil
}

// DetectUseAfterPut calls f from goroutines at once, each with its own
// string, for at most d, and checks every returned element after yielding
// to the others. It reports pitfall P2 when a result holds another
// goroutine's string: f returned memory it had already given back to a pool.
// It returns nil when no result was corrupted.
//
// Under the race detector, which would itself stop the program at the data
// race, it interleaves the calls on one goroutine instead: it calls f for
// one string, then for another, and checks whether the first result changed.
func DetectUseAfterPut(variant string, f func(s string) []string, goroutines int, d time.Duration) *Finding {
	if race.Enabled {
		return useAfterPutSerial(variant, f, d)
	}
	var calls, corrupt atomic.Int64
	var example atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		s := fmt.Sprintf("g%d", g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline) && corrupt.Load() < 10; i++ {
				ss := f(s)
				calls.Add(1)
				runtime.Gosched()
				for _, e := range ss {
					if e != s {
						corrupt.Add(1)
						example.CompareAndSwap(nil, fmt.Sprintf("f(%q) returned an element %q", s, e))
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	if corrupt.Load() == 0 {
		return nil
	}
	return &Finding{
		Pitfall: "P2",
		Variant: variant,
		Message: "use after Put: the returned slice is corrupted under concurrency, because the function put it back before the caller read it",
		Evidence: fmt.Sprintf("%d corrupted of %d results on %d goroutines; %s",
			corrupt.Load(), calls.Load(), goroutines, example.Load()),
	}
}

func useAfterPutSerial(variant string, f func(s string) []string, d time.Duration) *Finding {
	deadline := time.Now().Add(d)
	calls := 0
	for time.Now().Before(deadline) {
		first := f("g0")
		calls++
		f("g1")
		calls++
		for _, e := range first {
			if e != "g0" {
				return &Finding{
					Pitfall: "P2",
					Variant: variant,
					Message: "use after Put: the returned slice is overwritten by the next call, because the function put it back before the caller read it",
					Evidence: fmt.Sprintf("after %d calls on one goroutine (race detector on), f(%q) returned an element %q written by the following call",
						calls, "g0", e),
				}
			}
		}
	}
	return nil
}

// DetectBoxing measures the allocations of one Get and Put cycle of a pool
// and reports pitfall P4 when it allocates about once per cycle or more:
// the pool stores a non-pointer value, which Put boxes into a new interface
// value every time. It returns nil for a cycle that does not allocate, or
// only when the pool is empty: under the race detector sync.Pool drops a
// quarter of Puts, so a pointer pool then makes a new value (say a slice and
// its pointer, two allocations) every fourth cycle, 0.5 per cycle, still
// below the threshold of 0.9.
func DetectBoxing(variant string, cycle func()) *Finding {
	a := reusetest.Measure(1000, cycle)
	if a.PerRun < 0.9 {
		return nil
	}
	return &Finding{
		Pitfall:  "P4",
		Variant:  variant,
		Message:  "the pool stores a value, not a pointer: every Put allocates to box it",
		Evidence: fmt.Sprintf("%.3g allocations (%.3g B) per Get+Put cycle", a.PerRun, a.BytesPerRun),
	}
}
