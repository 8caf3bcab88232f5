package report

// Defs returns the definitions of the workloads W1–W11, in order. Each call
// returns fresh definitions; the pools are made when a variant is measured.
func Defs() []Def {
	return []Def{w1(), w2(), w3(), w4(), w5(), w6(), w7(), w8(), w9(), w10(), w11()}
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
