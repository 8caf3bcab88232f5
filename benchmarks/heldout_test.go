package benchmarks

import "github.com/reuse-go/reuse/benchmarks/internal/shapes"

// heldoutWorkloads are the shapes held out from bytebuf's redesign (issue
// #32; shapes.Heldout): written and committed before the design changed,
// and never tuned on afterwards. The figures on them are reported before
// and after the change; the shapes themselves must not change.
var heldoutWorkloads = untunedOf(shapes.Heldout())
