package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Op does one operation of a variant. When see is non-nil, Op calls it with
// the operation's output before it gives any pooled memory back, so the
// report can compare the output with the baseline's; the timed loop passes
// nil. An error means the op did not do its work.
type Op func(see func(any)) error

// Def defines a workload: everything the report knows about it is here, and
// nothing elsewhere in the package depends on its id. docs/WORKLOADS.md
// describes each one.
type Def struct {
	ID, Name string
	Op       string // what one op does
	// Claim is the claim the workload tests, in one sentence: what the
	// write-ups say pooling does here.
	Claim     string
	Published string // the published figures, as written up
	// Pitfalls are the labels (docs/PITFALLS.md) of the pitfalls the usual
	// code of this workload falls into; Detect must report each of them.
	Pitfalls []string
	// Curve, when set, says that the cases are points on a curve over their
	// Size and names its x axis; the page then draws time per op against
	// Size, and leaves the cases without a published ratio out of the
	// speedup chart.
	Curve string
	// Retained, when positive, has the report measure what each variant
	// keeps in the heap after one garbage collection, following this many
	// ops on a fresh instance; the page draws it. It is the point of a
	// workload about memory.
	Retained int
	Cases    []CaseDef
	// Detect, if non-nil, runs the workload's pitfall detectors on the usual
	// sync.Pool code and returns what they found.
	Detect func() []Finding
}

// CaseDef defines one case of a workload. The first variant is the baseline.
type CaseDef struct {
	Name     string
	Size     int // the size parameter, the x of Def.Curve
	Variants []VariantDef
}

// VariantDef defines one variant: New returns a fresh Op with its own pool.
type VariantDef struct {
	Name      string
	Role      string
	Published *Published
	New       func() Op
	// Parallel runs the op on GOMAXPROCS goroutines at once.
	Parallel bool
	// Fails, when set, says why the variant's ops are expected to fail the
	// report's check: it is a write-up's code reproduced with its bug.
	Fails string
}

// registry holds the constructor of every workload, each added by the one
// file that defines the workload (w1.go, w2.go, …) with
//
//	var _ = register(w1)
//
// so that adding a workload is adding one file. Registration happens during
// package initialisation, before any call can read the registry.
var registry []func() Def

// register adds a workload constructor to the registry. It returns true so
// that it can initialise a blank package-level variable.
func register(def func() Def) bool {
	registry = append(registry, def)
	return true
}

// Defs returns the definitions of every workload: the classic workloads
// (W1, W2, …, W11), then the break-even curves (B1, B2), each group ordered
// by the number in the ids. Each call returns fresh definitions; the pools
// are made when a variant is measured.
func Defs() []Def {
	defs := make([]Def, len(registry))
	for i, def := range registry {
		defs[i] = def()
	}
	group := func(id string) int {
		if strings.HasPrefix(id, "W") {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(defs, func(a, b Def) int {
		return cmp.Or(cmp.Compare(group(a.ID), group(b.ID)), strings.Compare(strings.TrimRight(a.ID, "0123456789"), strings.TrimRight(b.ID, "0123456789")), cmp.Compare(idNumber(a.ID), idNumber(b.ID)))
	})
	return defs
}

// idNumber is the number in a workload id such as "W11", or -1 when the id
// does not end in one.
func idNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimLeft(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
	if err != nil {
		return -1
	}
	return n
}

// pub returns a published figure: ns/op, B/op and allocs/op (-1 when the
// write-up does not give it) and the speedup against the published baseline
// (0 when there is none).
func pub(ns, bytes, allocs, speedup float64) *Published {
	return &Published{NsPerOp: ns, BytesPerOp: bytes, AllocsPerOp: allocs, Speedup: speedup}
}

// Package-level sinks keep results alive so the compiler cannot drop the
// work being measured. They are written and never read, on purpose.
var (
	//lint:ignore U1000 a sink: written, never read
	sinkInts []int
	//lint:ignore U1000 a sink: written, never read
	sinkBytes []byte
	//lint:ignore U1000 a sink: written, never read
	sinkStrings []string
	//lint:ignore U1000 a sink: written, never read
	sinkPerson *person
)

// keep makes its argument escape to the heap without a shared write, for
// ops that run on several goroutines at once. It is a variable so the
// compiler cannot see that it does nothing.
var keep = func(any) {}
