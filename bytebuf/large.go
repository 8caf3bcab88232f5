package bytebuf

import (
	"weak"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// The large arrays are the arrays Buffers grow into beyond their home array.
// They are kept by class in a few slots each, not in a sync.Pool, so that the
// pool knows exactly how many bytes they hold and can keep that within the
// budget. A slot holds a pointer to the array's first byte; the class gives
// its capacity. Taking or giving an array costs a compare-and-swap on the
// class's slots, paid only by Buffers that outgrow their home array, whose
// copy costs more.

// getLarge returns an empty array for a Buffer of capacity cur and length n
// that needs room for need bytes, need <= MaxCap: an array kept in the
// caches, the slots or the victim table when one of the right class is
// there, a new one otherwise. The class is the calibration's (target);
// without one, growth doubles, or, once the pool has calibrated, adds a
// quarter from largeArray up (see TestLargeGrowthWithoutPlan), but does not
// go past the top of the lengths (KeepCap) when need fits in it, which would
// waste capacity.
func (p *Pool) getLarge(need, cur, n int) []byte {
	st := p.state()
	i := sizeclass.Class(need)
	t := st.target(i, n, p.maxCapBytes())
	if t < 0 {
		g := 2 * cur
		if cur >= largeArray && p.calibrations.Load() > 0 {
			g = cur + cur/4
		}
		c := min(max(need, g), p.maxCapBytes())
		if k := int(st.keepCap.Load()); need <= k {
			c = min(c, k)
		}
		t = sizeclass.Class(c)
	}
	return p.takeClass(st, max(t, i))
}

// takeClass returns an empty array of class t: from the caller's P's cache,
// the shared slots or the victims when one is there, a new one otherwise.
func (p *Pool) takeClass(st *state, t int) []byte {
	if b := p.takeLocal(t); b != nil {
		return b
	}
	if t < nClasses {
		if b := p.takeLarge(st, t); b != nil {
			p.refreshLimit()
			return b
		}
	}
	return make([]byte, 0, sizeclass.Size(t))
}

// takeLarge takes an array of class i from the slots, or from the victim
// table, and returns it empty; nil if there is none.
func (p *Pool) takeLarge(st *state, i int) []byte {
	size := sizeclass.Size(i)
	if slots := st.slots[i].Load(); slots != nil {
		for k := range slots {
			if ptr := slots[k].Load(); ptr != nil && slots[k].CompareAndSwap(ptr, nil) {
				st.bytes.Add(-int64(size))
				return p.taken(ptr, size)
			}
		}
	}
	if st.victims.Load() > 0 {
		return p.taken(p.takeVictim(st, i), size)
	}
	return nil
}

// The larger arrays follow sync.Pool's rule, a victim cache: each sweep
// (after every collection) moves the arrays in the slots to the victim
// table, where only a weak pointer holds them, and drops what the victim
// table held before. Growth takes from the victim table when the slots have
// nothing. So an array nobody takes is freed by the second collection after
// it was last put back, as in a sync.Pool, while a pool in use loses only
// the arrays it did not need between two collections. The bytes of a
// victim stay counted in st.bytes until it is taken or dropped, even if
// the collector freed it before: the count errs high, and the budget check
// with it.

// takeVictim takes an array of class i from the victim table, nil if there
// is none still alive. It leaves st.bytes without the bytes of the
// entries it takes or finds freed.
func (p *Pool) takeVictim(st *state, i int) *byte {
	size := int64(sizeclass.Size(i))
	st.vmu.Lock()
	defer st.vmu.Unlock()
	row := st.victim[i]
	if row == nil {
		return nil
	}
	for k := range row {
		w := &row[k]
		if *w == (weak.Pointer[byte]{}) {
			continue
		}
		ptr := w.Value()
		*w = weak.Pointer[byte]{}
		st.victims.Add(-1)
		st.bytes.Add(-size)
		if ptr != nil {
			return ptr
		}
	}
	return nil
}

// age is the sweep's work on the larger arrays: it drops the victims, and
// moves the arrays in the slots to the victim table, or drops them too
// when the pool is idle.
func (p *Pool) age(st *state, idle bool) {
	st.vmu.Lock()
	defer st.vmu.Unlock()
	n := int32(0)
	for i := range st.slots {
		size := int64(sizeclass.Size(i))
		if v := st.victim[i]; v != nil {
			for k := range v {
				if v[k] != (weak.Pointer[byte]{}) {
					v[k] = weak.Pointer[byte]{}
					st.bytes.Add(-size)
				}
			}
		}
		slots := st.slots[i].Load()
		if slots == nil {
			continue
		}
		for k := range slots {
			if slots[k].Load() == nil {
				continue
			}
			if ptr := slots[k].Swap(nil); ptr != nil {
				if idle {
					st.bytes.Add(-size)
					continue
				}
				if st.victim[i] == nil {
					st.victim[i] = new(victimRow)
				}
				st.victim[i][k] = weak.Make(ptr)
				n++
			}
		}
	}
	st.victims.Store(n)
}

// putLarge keeps buf in its P's cache or in a shared slot if its capacity is
// exactly a class size, within MaxCap and the budget, and, before the first
// calibration, within the initial keep; otherwise it drops buf.
//
// Once calibrated, it keeps arrays of any class, not only those below the
// calibrated top: the top of a heavy-tailed distribution, estimated from
// samples, moves by several doublings from one calibration to the next, and
// an array dropped for being above it is allocated again by the next Buffer
// that grows that far (measured on the distributions suite: 2.2 times fewer
// bytes allocated on the Pareto workload, 8 times fewer on the bimodal one).
// An array no Buffer takes again is let go within two collections by the
// aging of both tiers, a rare giant included, and the budget bounds them all
// meanwhile.
func (p *Pool) putLarge(buf []byte) {
	if debug.Enabled {
		debug.SealBytes(buf)
	}
	size := cap(buf)
	i, exact := sizeclass.Floor(size)
	if !exact || i >= nClasses || size > p.maxCapBytes() {
		p.drops.Add(1)
		return
	}
	st := p.state()
	if st.calibrations.Load() == 0 && i > int(st.top.Load()) {
		p.drops.Add(1)
		return
	}
	if p.putLocal(buf, i) {
		return
	}
	// Reserve the bytes first, so that concurrent Puts cannot together
	// exceed the budget, less what the local caches may hold.
	if st.bytes.Add(int64(size))+p.homeBytes.Load() > p.budgetBytes()-p.reserve() {
		st.bytes.Add(-int64(size))
		p.drops.Add(1)
		return
	}
	ptr := firstByte(buf)
	slots := st.slots[i].Load()
	if slots == nil {
		// The class's first array in the shared tier: make its row, unless
		// another Put did first.
		st.slots[i].CompareAndSwap(nil, new(slotRow))
		slots = st.slots[i].Load()
	}
	for k := range slots {
		if slots[k].Load() == nil && slots[k].CompareAndSwap(nil, ptr) {
			p.refreshLimit()
			return
		}
	}
	st.bytes.Add(-int64(size))
	p.drops.Add(1)
}
