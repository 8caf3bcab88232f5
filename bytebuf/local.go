package bytebuf

import (
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// The local caches are the first tier of the large arrays, like the
// runtime's mcache in front of its mcentral: each P has, in the Spare word of
// its slot (see internal/perp), a small stack of arrays per class. A Buffer
// that grows takes its new array from its P's cache, and a grown Buffer's
// array goes back there at Put, with plain loads and stores while pinned: no
// atomic operation and no line shared with other Ps. Only when the local
// stack of a class is empty (at growth) or full (at Put) does the array go
// through the shared slots of large.go, the second tier.
//
// Memory: a P's cache holds at most its limit, a share of the part of the
// budget reserved for local caches (see reserve); the shared tier and the
// home arrays together stay within the rest of the budget, so the pool's
// total stays within Budget without the hot paths reading a shared counter.
//
// Retention, sync.Pool's victim rule, as for the shared tier: each sweep
// (after every collection) detaches every P's cache from its slot and keeps
// it only through a weak pointer, the victim. The P's next use takes its
// victim back if the collector has not freed it. So a cache, with its
// arrays, that no one uses for a whole collection interval is freed by the
// second collection after its last use, as a sync.Pool's values are. And
// within a cache in use, the owner drops, at its first use after each sweep,
// the arrays of every class it took nothing from during the collection
// interval that sweep ended (see age): an array put back and not taken
// again is let go within two collections, as in a sync.Pool, though it is
// not offered for a second interval as a sync.Pool's victim is.

const (
	// localPerClass is how many arrays of one class a local cache holds.
	localPerClass = 2
	// localClasses is the number of classes a local cache holds, up to
	// localMaxSize; larger arrays use the shared tier only. A larger array
	// costs microseconds to fill, next to which the shared tier's
	// compare-and-swap is nothing; and kept per P it would be out of reach
	// of the other Ps (a goroutine that moves to another P leaves its old
	// P's arrays behind).
	localClasses = 60 // sizeclass.Class(localMaxSize) + 1
	localMaxSize = 64 << 10
)

// lcache is one P's cache of arrays. Its owner, a goroutine pinned to the P,
// reads and writes it with plain loads and stores; the sweep only detaches
// it from its slot.
type lcache struct {
	// limit is the most bytes the cache holds; bytes is what it holds.
	// First, for 64-bit alignment on 32-bit platforms (Stats reads bytes
	// atomically).
	limit, bytes int64
	// gen is the pool's generation (Pool.gen) at the owner's last aging.
	gen uint32
	// n[i] is the number of arrays of class i, in arr[i][:n[i]]; idle[i]
	// counts the agings since one was last taken.
	n    [localClasses]uint8
	idle [localClasses]uint8
	arr  [localClasses][localPerClass]*byte
}

// reserve returns the part of the budget set aside for the local caches:
// a quarter of what the budget leaves above MaxCap, so that the shared tier and
// the home arrays can still hold an array of MaxCap, and a Budget equal to
// MaxCap leaves none (no local caches).
func (p *Pool) reserve() int64 {
	return (p.budgetBytes() - int64(p.maxCapBytes())) / 4
}

// cacheOf returns the local cache of slot sl, aged if a sweep ran since its
// owner last used it, or nil if it has none. The caller is pinned to sl's P.
func (p *Pool) cacheOf(sl *perp.Slot, gen uint32) *lcache {
	c := (*lcache)(sl.Spare)
	if c == nil {
		return nil
	}
	if c.gen != gen {
		c.age(gen)
	}
	return c
}

// age drops the arrays of the classes nothing was taken from during the
// interval the last sweep ended, and starts a new interval.
func (c *lcache) age(gen uint32) {
	c.gen = gen
	for i := range c.n {
		if c.n[i] > 0 && c.idle[i] >= 1 {
			c.bytes -= int64(c.n[i]) * int64(sizeclass.Size(i))
			c.arr[i] = [localPerClass]*byte{}
			c.n[i] = 0
		}
		c.idle[i] = min(c.idle[i]+1, 2)
	}
}

// takeLocal takes an empty array of class i from the caller's P's cache;
// nil if it has none.
func (p *Pool) takeLocal(i int) []byte {
	if !perp.OK || i >= localClasses {
		return nil
	}
	gen := p.gen.Load()
	a := p.slots.Load()
	pid := perp.Pin() // nothing here may allocate or block
	sl := perp.At(a, pid)
	if sl == nil {
		perp.Unpin()
		return nil
	}
	c := p.cacheOf(sl, gen)
	if c == nil {
		perp.Unpin()
		if p.victims.Load() == 0 {
			return nil
		}
		return p.takeRecovered(a, pid, i)
	}
	size := sizeclass.Size(i)
	ptr := c.pop(i, size)
	perp.Unpin()
	return p.taken(ptr, size)
}

// takeRecovered is takeLocal for P pid of the slot array a, whose cache a
// sweep detached: it takes the cache back from the victims, unless the
// collector freed it, and takes the array from it.
func (p *Pool) takeRecovered(a *perp.Slot, pid, i int) []byte {
	p.recover(a, pid)
	gen := p.gen.Load()
	size := sizeclass.Size(i)
	var ptr *byte
	if sl := perp.At(a, perp.Pin()); sl != nil {
		if c := p.cacheOf(sl, gen); c != nil {
			ptr = c.pop(i, size)
		}
	}
	perp.Unpin()
	return p.taken(ptr, size)
}

// taken returns the empty array of size bytes at ptr that the pool kept
// (in a per-P cache, a shared slot or the victims), nil for a nil ptr,
// after the debug build's check that nobody wrote into it while it was
// kept.
func (p *Pool) taken(ptr *byte, size int) []byte {
	if ptr == nil {
		return nil
	}
	if debug.Enabled {
		debug.CheckBytes(p, arrayOf(ptr, size)[:size])
	}
	return arrayOf(ptr, size)
}

// pop takes the last array of class i, i < localClasses, whose size is
// size, from c, and returns its first byte; nil if c has none. The caller is
// pinned to c's P.
func (c *lcache) pop(i, size int) *byte {
	k := c.n[i]
	if k == 0 {
		return nil
	}
	ptr := c.arr[i][k-1]
	c.arr[i][k-1] = nil
	c.n[i] = k - 1
	c.idle[i] = 0
	c.bytes -= int64(size)
	return ptr
}

// putLocal keeps buf, of class i and size exactly that class's, in the
// caller's P's cache, and reports whether it did: not when the cache's stack
// for the class is full, or it would hold more than its limit. It makes the
// cache on the P's first Put of a grown array.
func (p *Pool) putLocal(buf []byte, i int) bool {
	if !perp.OK || i >= localClasses {
		return false
	}
	gen := p.gen.Load()
	a := p.slots.Load()
	pid := perp.Pin() // nothing here may allocate or block
	sl := perp.At(a, pid)
	if sl == nil {
		perp.Unpin()
		return false
	}
	c := p.cacheOf(sl, gen)
	if c == nil {
		perp.Unpin()
		if c = p.newCache(a, pid, gen); c == nil {
			return false
		}
		p.install(a, pid, c)
		pid = perp.Pin()
		if sl = perp.At(a, pid); sl == nil {
			perp.Unpin()
			return false
		}
		if c = p.cacheOf(sl, gen); c == nil {
			perp.Unpin()
			return false
		}
	}
	ok := c.push(i, buf)
	perp.Unpin()
	return ok
}

// push keeps buf, of class i < localClasses and exactly that class's size,
// in c, and reports whether it did: not when c's stack for the class is
// full, or it would hold more than its limit. The caller is pinned to c's
// P.
func (c *lcache) push(i int, buf []byte) bool {
	size := int64(cap(buf))
	if k := c.n[i]; k < localPerClass && c.bytes+size <= c.limit {
		c.arr[i][k] = firstByte(buf)
		c.n[i] = k + 1
		c.bytes += size
		return true
	}
	return false
}

// newCache returns a cache for a P of the slot array a, with its share of
// the reserve, or its victim if the collector has not freed it; nil when the
// share is too small to hold any array.
func (p *Pool) newCache(a *perp.Slot, pid int, gen uint32) *lcache {
	if c := p.victim(pid); c != nil {
		return c
	}
	limit := p.reserve() / int64(perp.Len(a))
	if limit <= 0 {
		return nil
	}
	return &lcache{limit: limit, gen: gen}
}

// recover installs the victim of P pid, if it is still alive, in that P's
// slot of the array a. The caller is not pinned; pid is the P it ran on a
// moment ago.
func (p *Pool) recover(a *perp.Slot, pid int) {
	c := p.victim(pid)
	if c == nil {
		return
	}
	p.install(a, pid, c)
}

// install stores c in the slot of P pid of the array a, if the caller is
// still on that P and the slot has no cache. Otherwise c is left to the
// collector. The check matters: the victim of P pid may be used only on P
// pid, where no goroutine still pinned from before the sweep can be using
// it at the same time.
func (p *Pool) install(a *perp.Slot, pid int, c *lcache) {
	now := perp.Pin()
	if sl := perp.At(a, now); sl != nil && now == pid && sl.Spare == nil {
		sl.Spare = unsafe.Pointer(c)
	}
	perp.Unpin()
}

// victim takes P pid's victim, nil if it has none or the collector freed it.
func (p *Pool) victim(pid int) *lcache {
	if p.victims.Load() == 0 {
		return nil
	}
	p.lmu.Lock()
	defer p.lmu.Unlock()
	if pid >= len(p.lvictim) || p.lvictim[pid] == (weak.Pointer[lcache]{}) {
		return nil
	}
	c := p.lvictim[pid].Value()
	p.lvictim[pid] = weak.Pointer[lcache]{}
	p.victims.Add(-1)
	return c
}

// sweepLocal is the sweep's work on the local caches: it moves each P's
// cache to its victim, held weakly, and drops the victim it had, which the
// P did not take back during the interval. Owners age their caches at their
// next use, after gen moves.
func (p *Pool) sweepLocal() {
	p.gen.Add(1)
	p.lmu.Lock()
	defer p.lmu.Unlock()
	if n := p.slots.Len(); n > len(p.lvictim) {
		p.lvictim = append(p.lvictim, make([]weak.Pointer[lcache], n-len(p.lvictim))...)
	}
	live := int32(0)
	for i := range p.lvictim {
		p.lvictim[i] = weak.Pointer[lcache]{}
	}
	p.slots.Each(func(pid int, sl *perp.Slot) {
		if c := (*lcache)(atomic.SwapPointer(&sl.Spare, nil)); c != nil {
			p.lvictim[pid] = weak.Make(c)
			live++
		}
	})
	p.victims.Store(live)
	if live == 0 {
		p.lvictim = nil // an idle pool keeps no per-P memory
	}
}

// localBytes returns the bytes the local caches in the slots hold now (not
// their victims), read while their owners may change them: an estimate, for
// Stats.
func (p *Pool) localBytes() int64 {
	var n int64
	p.slots.Each(func(_ int, sl *perp.Slot) {
		if c := (*lcache)(atomic.LoadPointer(&sl.Spare)); c != nil {
			n += atomic.LoadInt64(&c.bytes)
		}
	})
	return n
}
