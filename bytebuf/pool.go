package bytebuf

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// Defaults for a Pool's bounds, used by the zero Pool and for zero fields of
// Config.
const (
	// DefaultMaxCap is the default MaxCap: arrays larger than 4 MiB are
	// never kept.
	DefaultMaxCap = 4 << 20
	// DefaultBudget is the default Budget: 32 MiB.
	DefaultBudget = 32 << 20
	// MaxMaxCap is the largest MaxCap NewPool accepts: 1 GiB.
	MaxMaxCap = 1 << 30
)

// fastPaths says whether the fast paths of growth and of the Put of a grown
// Buffer (growEmpty, putGrownLocal) run: only with per-P slots, and not in
// the debug build, whose checks are on the general paths.
const fastPaths = perp.OK && !debug.Enabled

// Tuning of the pool's policy; see the package documentation.
const (
	// initialCap is the capacity of new Buffers before the first
	// calibration.
	initialCap = 512
	// initialKeep is the largest array kept before the first calibration,
	// the threshold fmt uses for its own buffers (golang/go#23199).
	initialKeep = 64 << 10
	// sampleEvery is how many Puts of one Buffer make one sample of the
	// lengths written.
	sampleEvery = 64
	// sampleGrownEvery is how many Puts of a Buffer that grew make one
	// sample.
	sampleGrownEvery = 4
	// healAfter is how many calibrations a pool makes before it replaces
	// stale homes (see putGrown).
	healAfter = 16
)

// ErrConfig is wrapped by the errors NewPool returns for a Config that makes
// no sense.
var ErrConfig = errors.New("bytebuf: invalid Config")

// Config sets a Pool's bounds. A zero field takes its default.
type Config struct {
	// MaxCap is the largest capacity the pool keeps: a Buffer or array of
	// larger capacity is dropped at Put, whatever the calibration says.
	// Zero means DefaultMaxCap; at most MaxMaxCap.
	MaxCap int
	// Budget bounds the bytes the pool retains, counted as described in
	// the package documentation. Zero means DefaultBudget; it must be at
	// least MaxCap.
	Budget int64
}

// Pool is a pool of Buffers that calibrates itself to the lengths written
// into them, and retains at most a bounded number of bytes from its first
// call. See the package documentation for how.
//
// The zero value is ready to use, with DefaultMaxCap and DefaultBudget; use
// NewPool for other bounds. A Pool is safe for use by multiple goroutines and
// must not be copied after first use.
type Pool struct {
	// slots holds one Buffer per P in front of bufs (see internal/perp);
	// unused where perp.OK is false.
	slots perp.Slots
	// bufs holds the Buffers the slots have no room for, each with its
	// home array.
	bufs sync.Pool
	// maxCap and budget are the bounds; 0 means the default. Set once by
	// NewPool.
	maxCap int
	budget int64

	// Read by every Put, written by calibrations and new Buffers only.
	// defCap is the capacity of new Buffers, a class size; 0 before the
	// first calibration.
	defCap atomic.Int64
	// homeMax is the largest home array Put keeps: one class above the default
	// capacity once calibrated, 0 (no limit but MaxCap) before.
	homeMax atomic.Int64
	// limit is the largest capacity the fast path of Put keeps: homeMax
	// (MaxCap before calibration), or -1 while the pool is over budget;
	// 0 until first computed, which sends Puts to putSlow. refreshLimit
	// recomputes it wherever its inputs change.
	limit atomic.Int64
	// homeBytes is the capacity of the home arrays of the Buffers this
	// pool made that the garbage collector has not yet freed.
	homeBytes atomic.Int64
	// st holds the sampler, the calibration and the large arrays, made on
	// first need. Each sweep lets it go to stv, where only a weak pointer
	// holds it, and the pool's next need of it takes it back if the
	// collector has not freed it (see swept); vbytes holds its large bytes
	// meanwhile, so that the budget still counts them.
	st     atomic.Pointer[state]
	vbytes atomic.Int64
	// gen counts the sweeps, for the aging of the local caches (local.go).
	gen atomic.Uint32
	// lmu protects lvictim, the local caches the last sweep detached from
	// the slots, by P, held weakly, and stv; victims counts the non-zero
	// entries of lvictim.
	lmu     sync.Mutex
	lvictim []weak.Pointer[lcache]
	stv     weak.Pointer[state]
	// seenGets and seenPuts are the counts the last Stats reported.
	seenGets, seenPuts uint64
	victims            atomic.Int32
	// Where there are no slots (perp.OK is false): registered says that
	// keep has registered swept with the sweep, and used that Get ran since
	// the last sweep.
	registered, used atomic.Bool

	_ [128]byte // written on drops and new Buffers: keep off the lines above

	news  atomic.Uint64
	drops atomic.Uint64
	// gets and puts hold the counts the sweeps took from the states' cells
	// (see swept); calibrations counts every calibration.
	gets, puts, calibrations atomic.Uint64
}

// large returns the capacity of the larger arrays the pool keeps for growth
// (st.bytes).
func (p *Pool) large() int64 {
	if st := p.st.Load(); st != nil {
		return st.bytes.Load()
	}
	return p.vbytes.Load()
}

// account is what the cleanup of a Buffer needs: how many bytes its home
// array adds to Pool.homeBytes. It is separate from the Buffer so that the
// cleanup does not keep the Buffer alive.
type account struct {
	n atomic.Int64
}

// NewPool returns a Pool with the bounds of c, or an error wrapping ErrConfig
// when c makes no sense: a negative field, MaxCap above MaxMaxCap, or a
// Budget below MaxCap.
func NewPool(c Config) (*Pool, error) {
	if c.MaxCap < 0 || c.MaxCap > MaxMaxCap {
		return nil, fmt.Errorf("%w: MaxCap %d out of [0, %d]", ErrConfig, c.MaxCap, MaxMaxCap)
	}
	if c.Budget < 0 {
		return nil, fmt.Errorf("%w: negative Budget %d", ErrConfig, c.Budget)
	}
	p := &Pool{maxCap: c.MaxCap, budget: c.Budget}
	if p.budgetBytes() < int64(p.maxCapBytes()) {
		return nil, fmt.Errorf("%w: Budget %d below MaxCap %d", ErrConfig, p.budgetBytes(), p.maxCapBytes())
	}
	return p, nil
}

func (p *Pool) maxCapBytes() int {
	if p.maxCap == 0 {
		return DefaultMaxCap
	}
	return p.maxCap
}

func (p *Pool) budgetBytes() int64 {
	if p.budget == 0 {
		return DefaultBudget
	}
	return p.budget
}

// defaultCap returns the capacity of new Buffers now.
func (p *Pool) defaultCap() int {
	if d := p.defCap.Load(); d > 0 {
		return int(d)
	}
	return min(initialCap, p.maxCapBytes())
}

// Get returns an empty Buffer, from the pool or new with the calibrated
// default capacity. The caller owns it until it passes it to Put.
func (p *Pool) Get() *Buffer {
	if p == nil {
		panic("bytebuf: Pool.Get: nil *Pool")
	}
	if perp.OK {
		a := p.slots.Load()
		pid := perp.Pin() // nothing here may allocate or block
		if sl := perp.At(a, pid); sl != nil {
			if v := sl.Take(); v != nil {
				perp.Unpin()
				b := (*Buffer)(v)
				b.gets++
				if debug.Enabled {
					debug.GotPoisoned(p, b, b.buf[:cap(b.buf)])
				}
				return b
			}
		}
		perp.Unpin()
	}
	if !perp.OK && !p.used.Load() {
		p.used.Store(true) // the sweep's sign of use where there are no slots
	}
	if b, ok := p.bufs.Get().(*Buffer); ok {
		b.gets++
		if debug.Enabled {
			debug.GotPoisoned(p, b, b.buf[:cap(b.buf)])
		}
		return b
	}
	b := p.newBuffer()
	if debug.Enabled {
		debug.GotPoisoned(p, b, b.buf[:cap(b.buf)])
	}
	return b
}

// newBuffer makes a Buffer whose home array has the default capacity, and
// arranges for its bytes to leave homeBytes when the collector frees it.
func (p *Pool) newBuffer() *Buffer {
	p.news.Add(1)
	c := p.defaultCap()
	a := new(account)
	a.n.Store(int64(c))
	p.homeBytes.Add(int64(c))
	b := &Buffer{
		buf:  make([]byte, 0, c),
		pool: p,
		acct: a,
		gets: 1,
		// A random phase, so that short-lived Buffers are sampled too.
		tick: 1 + rand.Uint32N(sampleEvery),
	}
	runtime.AddCleanup(b, func(a *account) {
		p.homeBytes.Add(-a.n.Load())
		p.refreshLimit()
	}, a)
	p.refreshLimit()
	return b
}

// Put gives b back to the pool; b may be nil, which does nothing. Put
// transfers ownership: the caller must not use b, or any slice Bytes
// returned, afterwards.
//
// The pool keeps b, or the larger array b grew into, only within its bounds:
// capacity at most MaxCap, retained bytes within Budget, and a size the
// calibration found common. A Buffer that was not made by a Pool is dropped;
// one made by another Pool is a programming error and panics.
func (p *Pool) Put(b *Buffer) {
	if debug.Enabled && !debug.PutPtr(p, b) {
		return // a double Put, reported; storing it twice would hand it out twice
	}
	if b == nil || b.pool != p || b.home != nil || b.tick <= 1 || int64(cap(b.buf)) > p.limit.Load() {
		p.putSlow(b)
		return
	}
	// The fast path: b did not grow, is not sampled this time, and its
	// home array is within the limit.
	b.tick--
	b.puts++
	b.buf, b.peak = b.buf[:0], 0
	if debug.Enabled {
		debug.SealPoison(b, b.buf[:cap(b.buf)])
	}
	p.keep(b)
}

// putSlow is Put for nil and foreign Buffers, Buffers that grew, the Puts
// that are sampled, and Buffers the pool may not keep.
func (p *Pool) putSlow(b *Buffer) {
	if p == nil {
		panic("bytebuf: Pool.Put: nil *Pool")
	}
	if b == nil {
		return
	}
	if b.pool != p {
		if b.pool != nil {
			panic("bytebuf: Pool.Put: Buffer from another Pool")
		}
		p.drops.Add(1)
		return
	}
	b.puts++
	if b.home != nil {
		// Grown Buffers are fewer and their lengths matter most: one Put in
		// sampleGrownEvery of them is a sample, counted separately from the
		// others (gtick), so that each kind is weighted by its own rate.
		if b.gtick++; b.gtick%sampleGrownEvery == 0 {
			p.sample(b, sampleGrownEvery)
		}
		if p.putGrownLocal(b) {
			return
		}
		b.need0 = 0
		p.putGrown(b)
	} else if b.tick--; b.tick == 0 {
		b.tick = sampleEvery
		p.sample(b, sampleEvery)
	}
	// limit is kept up to date by whatever changes its inputs (new
	// Buffers and their cleanups, the shared slots, calibrations, sweeps).
	if int64(cap(b.buf)) > p.limit.Load() {
		// A home array from before the workload shrank, or more Buffers
		// alive than the budget allows: let the collector have it.
		p.drops.Add(1)
		return
	}
	b.buf, b.peak = b.buf[:0], 0
	if debug.Enabled {
		debug.SealPoison(b, b.buf[:cap(b.buf)])
	}
	p.keep(b)
}

// refreshLimit recomputes limit from homeMax, MaxCap and the bytes
// retained. It writes only when the value changes, so that the line Put
// reads stays shared between processors. Whatever changes those inputs calls
// it: new Buffers and their cleanups, a home array replaced, the shared
// slots' traffic, calibrations and sweeps; the per-P caches do not count in
// it (they have their own bound, the reserve).
func (p *Pool) refreshLimit() {
	l := p.homeMax.Load()
	if l == 0 {
		l = int64(p.maxCapBytes())
	}
	if p.homeBytes.Load()+p.large() > p.budgetBytes()-p.reserve() {
		l = -1
	}
	if p.limit.Load() != l {
		p.limit.Store(l)
	}
}

// putGrown takes the grown array off b at Put, and leaves b with its home
// array, which it replaces when it is below the default capacity: by the
// grown array when that has exactly the default capacity; and when the home
// is more than a class below (stale: made before the first calibration, or
// before the default rose), by an array of the default capacity from the
// caches, or a new one. Otherwise a stale Buffer would grow on most of its
// uses for as long as it lives, into arrays larger than the default: a
// Buffer made with the initial 512 bytes, on lengths around 12 KiB, grew at
// nearly every use. A home one class below is left for the exact case, as a
// home one class above is kept (homeSlack): replacing it too took
// capacity/written to 1.52 on log-normal lengths of median 2 KiB, whose
// default settles on either side of the median. Each replacement stays
// within the budget. The grown array, or the old home, goes to the caches.
func (p *Pool) putGrown(b *Buffer) {
	grown, home := b.buf, b.home
	b.home = nil
	if d := p.defaultCap(); p.replacesHome(cap(home), cap(grown), d) && p.homeRoom(d-cap(home)) {
		b.buf = grown
		if cap(grown) != d {
			b.buf = p.takeClass(p.state(), sizeclass.Class(d))
			p.putLarge(grown)
		}
		b.acct.n.Store(int64(d))
		p.homeBytes.Add(int64(d - cap(home)))
		p.putLarge(home)
		p.refreshLimit()
		return
	}
	b.buf = home
	p.putLarge(grown)
}

// replacesHome reports whether a Buffer with a home of capacity home, put
// back on a grown array of capacity grown, gets a new home of the default
// capacity d (see putGrown): when its home is below d and either the grown
// array has capacity d, or the home is stale, more than a class below d,
// and the pool has calibrated healAfter times, by when the default has left
// the first samples' noise (a home replaced before would take a default
// that moves on, and be left a class below it).
func (p *Pool) replacesHome(home, grown, d int) bool {
	if home >= d {
		return false
	}
	if grown == d {
		return true
	}
	st := p.st.Load()
	return home < sizeclass.Size(max(sizeclass.Class(d)-1, 0)) && st != nil && st.calibrations.Load() >= healAfter
}

// putGrownLocal is putSlow's fast path for a grown Buffer, the common case
// of putGrown, putLarge and keep in one pin: the grown array goes to the
// caller's P's cache and b, back on its home array, to the P's slot. It
// reports false, having changed nothing, when any of them would leave its
// own fast path: an array the cache does not take, a home swap, a home over
// the limit, a pool not yet calibrated, or no slot for the P. With
// growEmpty, it took a growth from about 490 instructions to about 360
// (callgrind, log-normal lengths of median 300 B, where a third to a half of
// the Buffers grow), against about 330 for a Get, Write and Put that does
// not grow.
func (p *Pool) putGrownLocal(b *Buffer) bool {
	if !fastPaths {
		return false
	}
	grown, home := b.buf, b.home
	size := cap(grown)
	i, exact := sizeclass.Fit(size) // a class size when its class's size is itself
	if exact != size || i >= localClasses || size > p.maxCapBytes() || int64(cap(home)) > p.limit.Load() {
		return false
	}
	if d := p.defaultCap(); cap(home) < d && p.replacesHome(cap(home), size, d) { // the call only for a home below d
		return false // a home to replace: putGrown does
	}
	if st := p.st.Load(); st == nil || st.calibrations.Load() == 0 {
		return false // putLarge's rule before the first calibration
	}
	gen := p.gen.Load()
	a := p.slots.Load()
	pid := perp.Pin() // nothing here may allocate or block
	sl := perp.At(a, pid)
	if sl == nil {
		perp.Unpin()
		return false
	}
	if c := p.cacheOf(sl, gen); c == nil || !c.push(i, grown) {
		perp.Unpin()
		return false
	}
	b.buf, b.home, b.peak, b.need0 = home[:0], nil, 0, 0
	old := sl.Val
	sl.Val = unsafe.Pointer(b)
	perp.Unpin()
	if old != nil {
		p.bufs.Put((*Buffer)(old))
	}
	return true
}

// homeRoom reports whether the home arrays may grow by n bytes and stay
// within the part of the budget that is theirs and the shared tier's. Checked
// before a Buffer takes a larger home at Put: a Buffer over the budget is
// dropped, but its home stays counted until the collector frees it.
func (p *Pool) homeRoom(n int) bool {
	return p.homeBytes.Load()+int64(n)+p.large() <= p.budgetBytes()-p.reserve()
}

// grow replaces b's array with one of room for need bytes, copying b's
// contents, at Buffer.grow.
func (p *Pool) grow(b *Buffer, need int) {
	if p.growEmpty(b, need) {
		return
	}
	old := b.buf
	var buf []byte
	if need > p.maxCapBytes() {
		// Never kept: grow like append.
		buf = make([]byte, len(old), max(need, 2*cap(old)))
	} else {
		buf = p.getLarge(need, cap(old), len(old))[:len(old)]
		if len(old) == 0 && b.home == nil {
			b.need0 = uint32(need) // need <= MaxCap <= MaxMaxCap
		}
	}
	copy(buf, old)
	b.buf = buf
	if b.home == nil {
		b.home = old[:0]
	} else {
		p.putLarge(old)
	}
}

// growEmpty is grow's fast path for the most common growth, that of an
// empty Buffer on its home array (a Buffer written in one piece larger than
// the default capacity): when the calibration has a growth target for need
// and the caller's P's cache holds an array of it, b takes that array, with
// nothing to copy and none of getLarge's cases. It reports false, having
// changed nothing, otherwise; grow then does the same through getLarge.
func (p *Pool) growEmpty(b *Buffer, need int) bool {
	if !fastPaths || len(b.buf) != 0 || b.home != nil || need > localMaxSize || need > p.maxCapBytes() {
		return false
	}
	st := p.st.Load()
	if st == nil {
		return false
	}
	i := sizeclass.Class(need)      // < localClasses: need <= localMaxSize
	t := int(st.plan[i].Load()) - 1 // st.target for n == 0, inline
	if t < 0 {
		return false // no plan yet
	}
	if st.exact[i].Load() {
		t = i
	}
	buf := p.takeLocal(max(t, i))
	if buf == nil {
		return false
	}
	b.home, b.buf, b.need0 = b.buf, buf, uint32(need)
	return true
}

// Stats is a snapshot of a Pool's counters and calibration.
//
// News, Drops and Calibrations are exact. Gets and Puts are added to the
// pool's counters by each Buffer at its first sample after 64 Puts, so they
// lag the true counts by up to 127 Gets and Puts per Buffer, including
// Buffers the garbage collector has since freed: read them as lower bounds. RetainedBytes is an
// estimate, described in the package documentation.
type Stats struct {
	// Gets and Puts count calls to Get and to Put with a non-nil Buffer
	// (lower bounds, see above).
	Gets, Puts uint64
	// News counts Buffers made because the pool had none to give.
	News uint64
	// Drops counts Buffers, and arrays Buffers grew into, that Put let go
	// instead of keeping.
	Drops uint64
	// DefaultCap is the capacity new Buffers get now.
	DefaultCap int
	// KeepCap is the top of the lengths written, as the calibration
	// estimates it (before the first calibration, the largest capacity
	// kept): growth stays within it when the length needed does. Larger
	// arrays, up to MaxCap, are kept too once the pool has calibrated,
	// within the budget and until the aging lets them go.
	KeepCap int
	// RetainedBytes estimates the bytes the pool holds: the home arrays of
	// the Buffers it made that the collector has not freed (whether in the
	// pool or in use), plus the larger arrays it keeps for growth.
	RetainedBytes int64
	// Calibrations counts the times the pool recomputed DefaultCap and the
	// sizes it keeps from the lengths written.
	Calibrations uint64
}

// Stats returns a snapshot of the pool's counters. Counters are read one at a
// time while other goroutines may update them.
func (p *Pool) Stats() Stats {
	if p == nil {
		panic("bytebuf: Pool.Stats: nil *Pool")
	}
	s := Stats{
		News:          p.news.Load(),
		Drops:         p.drops.Load(),
		DefaultCap:    p.defaultCap(),
		KeepCap:       min(initialKeep, p.maxCapBytes()),
		RetainedBytes: p.homeBytes.Load() + p.large() + p.localBytes(),
		Calibrations:  p.calibrations.Load(),
	}
	// Gets and Puts never go down from one call to the next, as a metrics
	// system reading them as counters needs. Under lmu, the sweep's move of
	// the counts out of a state it lets go (swept) is all done or not
	// begun. What remains is a sample in flight during the sweep, whose
	// counts land in the state after the move: lost if the collector then
	// frees that state, so Stats reports at least what it reported before
	// (seen). Every figure is a count of calls made, so the counts stay
	// lower bounds.
	p.lmu.Lock()
	defer p.lmu.Unlock()
	s.Gets, s.Puts = p.gets.Load(), p.puts.Load()
	if st := p.liveStateLocked(); st != nil {
		for i := range st.cells {
			c := &st.cells[i]
			s.Gets += c.gets.Load()
			s.Puts += c.puts.Load()
		}
		if st.calibrations.Load() > 0 {
			s.KeepCap = int(st.keepCap.Load())
		}
	}
	s.Gets, s.Puts = max(s.Gets, p.seenGets), max(s.Puts, p.seenPuts)
	p.seenGets, p.seenPuts = s.Gets, s.Puts
	return s
}

// swept is called after each sweep of the slots (see internal/perp), so
// after every collection: it ages the larger arrays the pool keeps for
// growth (see age), and lets go of the state that holds them and the
// sampler (4.7 KiB and half a KiB per P), keeping only its counts and its
// default capacity. When nothing was taken from the slots since the previous
// sweep, the pool is idle, and the state goes with all its arrays. Otherwise
// the state becomes the victim, held by a weak pointer only, and the pool's
// next need of it takes it back (state), unless the collector freed it
// first: so a pool whose use ended before a collection holds no state after
// the next one, as a sync.Pool holds nothing two collections after its last
// use, and a pool in use keeps its calibration. A sample or an array put back
// into a state the collector then frees is lost with it, and so are their
// counts; the bytes kept are counted per state.
func (p *Pool) swept(idle bool) {
	if !perp.OK {
		// No slots, so the sweep cannot tell: Get says.
		idle = !p.used.Swap(false)
	}
	p.sweepLocal()
	st := p.st.Load()
	if st != nil {
		p.age(st, idle)
	}
	p.lmu.Lock()
	// The victim of the last sweep was not taken back: the collection
	// freed it, and its counts were moved before.
	p.stv = weak.Pointer[state]{}
	p.vbytes.Store(0)
	if st != nil {
		if !idle {
			// The victim first, so that a Get that needs the state
			// between the two steps takes it back rather than make one.
			p.vbytes.Store(st.bytes.Load())
			p.stv = weak.Make(st)
		}
		if p.st.CompareAndSwap(st, nil) {
			// Under lmu, so that Stats sees the counts either in the
			// state or in the pool, never in neither.
			for i := range st.cells {
				c := &st.cells[i]
				p.gets.Add(c.gets.Swap(0))
				p.puts.Add(c.puts.Swap(0))
			}
		}
	}
	p.lmu.Unlock()
	p.refreshLimit()
}

// liveState returns the state, or the victim if the collector has not freed
// it, without taking the victim back; nil if neither.
func (p *Pool) liveState() *state {
	p.lmu.Lock()
	defer p.lmu.Unlock()
	return p.liveStateLocked()
}

// liveStateLocked is liveState for a caller that holds lmu.
func (p *Pool) liveStateLocked() *state {
	if st := p.st.Load(); st != nil {
		return st
	}
	return p.stv.Value()
}

// keep stores b, empty and within the bounds, in the slot of the caller's P,
// and moves what the slot held behind into bufs. A slot costs a pin and a
// few plain memory accesses, where each sync.Pool operation costs a pin and
// more (measured with callgrind: a Get, a 100-byte Write and a Put fell from
// 256 to 205 instructions, against 225 for a sync.Pool of *bytes.Buffer).
// The sweep after each collection empties every slot (internal/perp's
// MakeShort: a Buffer is cheap to make again, so the slots decline the
// second chance that reuse.Pool's give), so that a Buffer in a slot is freed
// by the second collection after its Put, as in a sync.Pool;
// its Buffer's home array counts in the budget like any live Buffer's until
// the collector frees it.
func (p *Pool) keep(b *Buffer) {
	if perp.OK {
		a := p.slots.Load()
		if a == nil {
			a = p.slots.MakeShort(p.swept)
		}
		pid := perp.Pin() // nothing here may allocate or block
		if sl := perp.At(a, pid); sl != nil {
			old := sl.Val
			sl.Val = unsafe.Pointer(b)
			perp.Unpin()
			if old != nil {
				p.bufs.Put((*Buffer)(old))
			}
			return
		}
		perp.Unpin()
		p.slots.Grow()
	} else if !p.registered.Load() {
		// No slots, but the sweep still ages the larger arrays.
		p.registered.Store(true)
		p.slots.MakeShort(p.swept)
	}
	p.bufs.Put(b)
}
