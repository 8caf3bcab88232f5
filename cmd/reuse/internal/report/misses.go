package report

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/reuse-go/reuse"
)

// MaxMissRate is the largest share of a variant's timed ops in which its
// pool may miss (have nothing to give, though nothing was dropped, so that
// the op allocated afresh) for its figures to stand for a pool at work:
// above it, the variant is marked, and its comparisons never make a
// headline.
const MaxMissRate = 0.01

// poolCounters are what the report can see of a variant's pool: how many
// times it had nothing to give (news), and how many values the variant
// let go instead of giving them back (drops). Either may be nil.
type poolCounters struct{ news, drops func() uint64 }

// building holds the counters that the VariantDef.New being called
// registered, for build to take. Variants are built one at a time.
var building poolCounters

// track registers news and drops (nil when the variant drops nothing) for
// the pool of the variant whose New is running: a VariantDef.New calls it
// for the pool it makes.
func track(news, drops func() uint64) { building = poolCounters{news, drops} }

// countedPool returns a sync.Pool with New newf, each call of which
// counts as a miss of the variant being built.
func countedPool(newf func() any) *sync.Pool {
	n := new(atomic.Uint64)
	building.news = n.Load
	return &sync.Pool{New: func() any { n.Add(1); return newf() }}
}

// countedDrops returns a counter of the values the variant being built
// lets go instead of putting them back; its op adds to it.
func countedDrops() *atomic.Uint64 {
	d := new(atomic.Uint64)
	building.drops = d.Load
	return d
}

// tracked registers p's misses and drops (Stats().News and Drops) for the
// variant being built and returns p.
func tracked[P interface{ Stats() reuse.Stats }](p P) P {
	track(func() uint64 { return p.Stats().News }, func() uint64 { return p.Stats().Drops })
	return p
}

// build calls vd.New and returns the op with what it registered of its pool.
func build(vd VariantDef) (Op, poolCounters) {
	building = poolCounters{}
	op := vd.New()
	c := building
	building = poolCounters{}
	return op, c
}

// missRate is the share of ops in which a pool missed though nothing had
// been dropped: the misses beyond the drops.
func missRate(misses, drops, ops uint64) float64 {
	if ops == 0 || misses <= drops {
		return 0
	}
	return float64(misses-drops) / float64(ops)
}

// steadiness is what a variant's miss count says: "" for a pool at work
// (or no pool the report can see), otherwise what it missed.
func steadiness(v Variant) string {
	if !v.MissesCounted || v.MissRate <= MaxMissRate {
		return ""
	}
	return fmt.Sprintf("its pool missed in %s of %s timed ops (%.1f%%, more than %.0f%%) though it dropped %s: its figures are as much fresh allocation's as the pool's",
		Fraction(float64(v.Misses)), Fraction(float64(v.Ops)), 100*v.MissRate, 100*MaxMissRate, Fraction(float64(v.Drops)))
}

// read returns the counts of misses and drops so far, 0 for those the
// report cannot see.
func (c poolCounters) read() (news, drops uint64) {
	if c.news != nil {
		news = c.news()
	}
	if c.drops != nil {
		drops = c.drops()
	}
	return news, drops
}
