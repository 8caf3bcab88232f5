package chart

import (
	"math"
	"strconv"
)

// Scale maps data values in [Min, Max] to positions in [From, To], linearly
// or, when Log is set, logarithmically. A logarithmic scale needs Min > 0.
type Scale struct {
	Min, Max float64
	From, To float64
	Log      bool
	// Base2, on a log scale, puts the ticks at powers of 1024 (with
	// powers of 32, 4 or 2 between where that gives fewer than three),
	// for bytes counted in KiB and MiB.
	Base2 bool
}

// Map returns the position of v. Values outside [Min, Max] map outside
// [From, To]; a non-positive value on a log scale maps to From.
func (s Scale) Map(v float64) float64 {
	lo, hi, x := s.Min, s.Max, v
	if s.Log {
		if v <= 0 || lo <= 0 {
			return s.From
		}
		lo, hi, x = math.Log10(lo), math.Log10(hi), math.Log10(v)
	}
	if hi == lo {
		return (s.From + s.To) / 2
	}
	return s.From + (x-lo)/(hi-lo)*(s.To-s.From)
}

// Ticks returns the values at which to draw grid lines: the powers of ten in
// [Min, Max] on a log scale (with 2 and 5 multiples when there are fewer than
// three), about five round steps on a linear one.
func (s Scale) Ticks() []float64 {
	switch {
	case s.Log && s.Base2:
		return s.base2Ticks()
	case s.Log:
		return s.log10Ticks()
	default:
		return s.linearTicks()
	}
}

// base2Ticks returns the ticks of a Base2 log scale: the powers of 1024 in
// [Min, Max], or of 32, 4 or 2 where that gives fewer than three; nil
// where Min is not positive or Max is below it.
func (s Scale) base2Ticks() []float64 {
	if s.Min <= 0 || s.Max < s.Min {
		return nil
	}
	var t []float64
	e0, e1 := int(math.Floor(math.Log2(s.Min))), int(math.Ceil(math.Log2(s.Max)))
	for _, step := range []int{10, 5, 2, 1} {
		t = t[:0]
		for e := e0 - e0%step; e <= e1; e += step {
			if v := math.Exp2(float64(e)); s.holds(v) {
				t = append(t, v)
			}
		}
		if len(t) >= 3 {
			break
		}
	}
	return t
}

// log10Ticks returns the ticks of a decimal log scale: the powers of ten
// in [Min, Max], with their 2 and 5 multiples where the scale spans at
// most two decades; nil where Min is not positive or Max is below it.
func (s Scale) log10Ticks() []float64 {
	if s.Min <= 0 || s.Max < s.Min {
		return nil
	}
	var t []float64
	e0 := int(math.Floor(math.Log10(s.Min)))
	e1 := int(math.Ceil(math.Log10(s.Max)))
	mults := []float64{1}
	if e1-e0 <= 2 {
		mults = []float64{1, 2, 5}
	}
	for e := e0; e <= e1; e++ {
		for _, m := range mults {
			if v := m * math.Pow(10, float64(e)); s.holds(v) {
				t = append(t, v)
			}
		}
	}
	return t
}

// holds reports whether v lies in [Min, Max], within a relative 1e-9 that
// absorbs the rounding of computing a power.
func (s Scale) holds(v float64) bool {
	return v >= s.Min*(1-1e-9) && v <= s.Max*(1+1e-9)
}

// linearTicks returns the ticks of a linear scale: the multiples in
// [Min, Max] of a round step near a fifth of its span; just Min where the
// span is empty.
func (s Scale) linearTicks() []float64 {
	if s.Max <= s.Min {
		return []float64{s.Min}
	}
	var t []float64
	step := niceStep((s.Max - s.Min) / 5)
	for v := math.Ceil(s.Min/step) * step; v <= s.Max+step*1e-9; v += step {
		t = append(t, v)
	}
	return t
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// LogBounds widens [min, max] to whole powers of ten, for a log scale.
// Non-positive inputs are ignored; with nothing positive it returns 1, 10.
func LogBounds(min, max float64) (lo, hi float64) {
	if max <= 0 {
		return 1, 10
	}
	if min <= 0 {
		min = max
	}
	lo = math.Pow(10, math.Floor(math.Log10(min)))
	hi = math.Pow(10, math.Ceil(math.Log10(max)))
	if hi == lo {
		hi = lo * 10
	}
	return lo, hi
}

// Format writes v compactly for an axis label: 1e+06 as "1M", 0.01 as "0.01".
func Format(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1e9:
		return trim(v/1e9) + "G"
	case a >= 1e6:
		return trim(v/1e6) + "M"
	case a >= 1e4:
		return trim(v/1e3) + "k"
	default:
		return trim(v)
	}
}

// trim writes v to 3 significant digits, halves rounded away from zero
// (0.3125 as 0.313), as the report's text rounds: strconv rounds an exact
// half to even, so that a chart and the text beside it would differ.
func trim(v float64) string {
	if a := math.Abs(v); a >= 1000 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	if v != 0 {
		p := math.Pow10(2 - int(math.Floor(math.Log10(math.Abs(v)))))
		v = math.Round(v*p) / p
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
