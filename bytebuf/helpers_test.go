package bytebuf_test

import "math"

func float64frombits(u uint64) float64 { return math.Float64frombits(u) }
