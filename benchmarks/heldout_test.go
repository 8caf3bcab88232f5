package benchmarks

import (
	"testing"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

// heldoutWorkloads are the shapes held out from bytebuf's redesign (issue
// #32; shapes.Heldout): written and committed before the design changed,
// and never tuned on afterwards. The figures on them are reported before
// and after the change; the shapes themselves must not change.
var heldoutWorkloads = untunedOf(shapes.Heldout())

// BenchmarkDistHeldout runs the held-out shapes like BenchmarkDistUntuned:
// each shape's lengths written in its own pieces, for the five pools.
//
//	go test -run '^$' -bench DistHeldout -cpu 1,2,4 -benchtime 65536x -count 6 > heldout.txt
func BenchmarkDistHeldout(b *testing.B) {
	for _, wl := range heldoutWorkloads {
		benchDistPools(b, wl.distWorkload, wl.piece)
	}
}
