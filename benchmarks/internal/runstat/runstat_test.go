package runstat

import (
	"slices"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := slices.Clone(c.in)
		if got := Median(in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("Median(%v) changed its input to %v", c.in, in)
		}
	}
	type r struct{ a, b float64 }
	rs := []r{{1, 30}, {3, 10}, {2, 20}}
	if a, b := MedianOf(rs, func(x r) float64 { return x.a }), MedianOf(rs, func(x r) float64 { return x.b }); a != 2 || b != 20 {
		t.Errorf("MedianOf: %v and %v, want 2 and 20", a, b)
	}
}

func TestLoadAvg(t *testing.T) {
	if l := LoadAvg(); l != "unknown" && len(strings.Fields(l)) != 3 {
		t.Errorf("LoadAvg() = %q, want three fields or unknown", l)
	}
}
