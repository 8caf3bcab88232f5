package bytebuf

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
)

// Defaults for a Pool's bounds: the zero Pool's, and for zero Config fields.
const (
	// DefaultMaxCap is the default MaxCap: arrays larger than 4 MiB are
	// never kept.
	DefaultMaxCap = 4 << 20
	// DefaultBudget is the default Budget: 32 MiB for every four
	// processors (GOMAXPROCS), at least 32 MiB.
	DefaultBudget = 32 << 20
	// MaxMaxCap is the largest MaxCap NewPool accepts: 1 GiB.
	MaxMaxCap = 1 << 30
)

// sizeClass returns the smallest class k whose arrays, of 1<<k bytes, hold
// n (here, not in size.go: a Get, Write or Put passes through 3 files).
func sizeClass(n int) int { return bits.Len(uint(max(n, 1) - 1)) }

// defSize returns the size of class d. The mask spares the test of the
// shift Go's semantics need (a quarter of Get's instructions).
func defSize(d int) int { return 1 << (uint(d) & 63) }

// sizerDef returns the default class of the packed state aux begins.
func sizerDef(aux uintptr) int { return int(uint8(aux)&0x7f ^ initialClass) }

// defOf is sizerDef for p: a P that has counted nothing yet takes the
// default the last window of any P moved to (p.hint), if any (see add).
func (p *Pool) defOf(aux uintptr) int {
	if aux&0xff80 == 0 { // no window ended and none begun
		if h := p.hint.Load(); h != 0 {
			return int(h)
		}
	}
	return sizerDef(aux)
}

// topClass returns the largest default class: the largest power of two
// within MaxCap, so that a default Buffer is always kept.
func (p *Pool) topClass() int { return bits.Len(uint(p.maxCapBytes())) - 1 }

// ErrConfig is wrapped by the errors NewPool returns for a senseless Config.
var ErrConfig = errors.New("bytebuf: invalid Config")

// Config sets a Pool's bounds. A zero field takes its default.
type Config struct {
	// MaxCap is the largest capacity the pool keeps: a Buffer whose
	// capacity is larger is dropped at Put. Zero means DefaultMaxCap; at
	// most MaxMaxCap.
	MaxCap int
	// Budget bounds the bytes of the arrays of the Buffers the pool made
	// that are still alive, in use or kept: while they exceed it, Put drops
	// Buffers instead of keeping them. Zero means DefaultBudget for every
	// four processors (GOMAXPROCS), at least DefaultBudget; it must be at
	// least MaxCap.
	Budget int64
}

// Pool is a pool of Buffers that sizes the Buffers it hands out to the
// lengths written into them, and keeps what it retains within a bound from
// its first call. See the package documentation for how.
//
// The zero value is ready to use, with DefaultMaxCap and DefaultBudget; use
// NewPool for other bounds. A Pool is safe for use by multiple goroutines and
// must not be copied after first use.
type Pool struct {
	// limit is the largest capacity Put keeps: MaxCap, or -1 while the
	// arrays alive exceed the budget; 0 until first computed. Every Put
	// reads it with slots' array pointer, which it shares a line with.
	limit atomic.Int64
	// slots holds, for each P, a stack of Buffers of its default class
	// (Stack, Depth), the last Buffer that grew (Val), and its sizing state
	// (Aux, Aux2; see sizer); the class pools hang from its header. After
	// each collection it goes to a weak pointer (perp.Slots.MakeShort), and
	// every Buffer points to it: so the sizing lasts as long as any Buffer.
	slots perp.Slots
	// classes holds the Buffers by the class of their capacity where there
	// are no per-P slots (see classesNow).
	classes atomic.Pointer[perp.Shelves[Buffer]]
	// maxCap and budget are the bounds; 0 means the default. Set once by
	// NewPool.
	maxCap int
	budget int64

	// alive is the capacity of the arrays of the Buffers this pool made
	// that the collector has not freed.
	alive atomic.Int64
	// shared is the sizing state where there are no per-P slots.
	shared struct {
		mu    sync.Mutex // protects st and phase
		st    sizer
		phase uint32       // Puts counted, for the sampling
		def   atomic.Int32 // st.def, for Get and Stats
	}

	_ [64]byte // counters written on rare events: keep off the lines above

	news, growNews, drops, changes atomic.Uint64
	// hint is the class the last window of any P moved to, 0 before any (defOf).
	hint atomic.Int32
	// grown has a bit set for each size a growth reached (see grow).
	grown atomic.Uint32
	// gets and puts count where there are no per-P slots.
	gets, puts atomic.Uint64
}

// array is what a Pool knows of an array of its Buffers; it moves with it.
type array struct {
	n       int                // the capacity
	cleanup runtime.Cleanup    // counts it in alive until the collector frees it
	weak    weak.Pointer[byte] // made at its first time on a shelf (see shelved)
}

// releases[c] is the cleanup of an array of 1<<c bytes, its argument the pool
// alone (a box of 8 bytes); release is that of the arrays an append grew.
var releases [64]func(*Pool)

type sized struct {
	p *Pool
	n int64
}

func release(c sized) { c.p.alive.Add(-c.n); c.p.refreshLimit() }

func init() {
	for c := range releases {
		releases[c] = func(p *Pool) { release(sized{p, 1 << c}) }
	}
}

// count counts buf's array in alive until the collector frees it.
func (p *Pool) count(buf []byte) *array {
	a := &array{n: cap(buf)} // at least 64: newBuffer's sizes, appendGrow's
	p.alive.Add(int64(a.n))
	if c := bits.TrailingZeros(uint(a.n)); a.n == 1<<c {
		a.cleanup = runtime.AddCleanup(unsafe.SliceData(buf), releases[c], p)
	} else {
		a.cleanup = runtime.AddCleanup(unsafe.SliceData(buf), release, sized{p, int64(a.n)})
	}
	p.refreshLimit()
	return a
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

func (p *Pool) maxCapBytes() int { return cmp.Or(p.maxCap, DefaultMaxCap) }

// budgetBytes returns Budget, or for zero DefaultBudget for every four
// processors (GOMAXPROCS now): at 16, 32 MiB dropped what growth reallocated.
func (p *Pool) budgetBytes() int64 {
	return cmp.Or(p.budget, DefaultBudget*int64(max(1, runtime.GOMAXPROCS(0)/4)))
}

// Get returns an empty Buffer whose capacity is the default capacity of the
// calling goroutine's processor, from the pool or new. The caller owns it
// until it passes it to Put.
func (p *Pool) Get() *Buffer {
	if p == nil {
		panic("bytebuf: Pool.Get: nil *Pool")
	}
	if !perp.OK {
		p.gets.Add(1)
		return p.handOut(p.fromClass(p.sharedDef(), &p.news))
	}
	a := p.slots.Load()
	if a == nil {
		a = p.slotsNow()
	}
	pid := perp.Pin() // nothing here may allocate or block
	sl := p.slots.At(a, pid)
	if sl == nil {
		perp.Unpin()
		p.slots.Count(true) // GOMAXPROCS grew this instant
		return p.handOut(p.fromClass(p.sharedDef(), &p.news))
	}
	perp.Add(&sl.Gets)
	// The stack holds the default class alone (Put empties it when the
	// default moves). A popped entry stays: no write barrier.
	if dp := sl.Depth - 1; uint8(dp) < perp.StackLen { // 255: empty
		sl.Depth = dp
		if v := sl.Stack[uint8(dp)]; v != nil {
			perp.Unpin()
			return p.handOut((*Buffer)(v))
		}
	}
	d := p.defOf(sl.Aux)
	perp.Unpin()
	b := p.fromClass(d, &p.news)
	b.slots = a
	return p.handOut(b)
}

// handOut is the end of every Get: the debug build's checks of b.
func (p *Pool) handOut(b *Buffer) *Buffer {
	if debug.Enabled {
		debug.GotPoisoned(p, b, b.buf[:cap(b.buf)])
	}
	return b
}

// slotsNow returns the per-P array, made at first use and taken back after
// each collection's sweep let it go (see perp.Slots.MakeShort).
func (p *Pool) slotsNow() *perp.Slot {
	if a := p.slots.Load(); a != nil {
		return a
	}
	return p.slots.MakeShort(nil)
}

// fromClass returns an empty Buffer of capacity defSize(c), kept or new (counted in *made).
func (p *Pool) fromClass(c int, made *atomic.Uint64) *Buffer {
	if cp := p.classesNow(); c < cp.Classes() {
		for b := cp.Get(c); b != nil; b = cp.Get(c) {
			if unpark(b) {
				return b
			}
		}
	}
	made.Add(1)
	return p.newBuffer(defSize(c))
}

// newBuffer makes a Buffer of capacity size, counted in alive until freed.
func (p *Pool) newBuffer(size int) *Buffer {
	b := &Buffer{buf: make([]byte, 0, size), pool: p}
	b.arr = p.count(b.buf)
	return b
}

// refreshLimit recomputes limit from MaxCap, the budget and alive, writing
// only on a change, so that the line Put reads stays shared between Ps.
func (p *Pool) refreshLimit() {
	l := int64(p.maxCapBytes())
	if p.alive.Load() > p.budgetBytes() {
		l = -1
	}
	if p.limit.Load() != l {
		p.limit.Store(l)
	}
}

// Put gives b back to the pool; b may be nil, which does nothing. Put
// transfers ownership: the caller must not use b, or any slice Bytes
// returned, afterwards.
//
// The pool keeps b only within its bounds: capacity at most MaxCap, and
// the arrays alive within Budget. A Buffer that was not made by a Pool is
// dropped; one made by another Pool is a programming error and panics.
func (p *Pool) Put(b *Buffer) {
	if !p.fastPut(b) {
		p.putSlow(b)
		return
	}
	pid := perp.Pin()
	a := p.slots.Load() // after the call: nothing but p and b live across it
	sl := p.slots.At(a, pid)
	if sl == nil || sl.Aux&0xff80 == 0 { // no slot (or no a), or a P whose sizing has not begun (defOf)
		perp.Unpin()
		p.putSized(b)
		return
	}
	aux := sl.Aux
	perp.Add(&sl.Puts)
	dp := sl.Depth + 1<<8
	sl.Depth = dp
	d := sizerDef(aux)
	if dp&((sampleEvery-1)<<8) == 0 { // sample, written out but for a window's end
		if s, n := (sizer{aux, sl.Aux2}), b.written(); !s.last() {
			s.count(sizeClass(n), d)
			sl.Aux, sl.Aux2 = s.w0, s.w1
		} else if nd, moved := sample(sl, n, p, d); moved {
			p.afterMove(sl, moved) // the push below starts the emptied stack
			d, dp = nd, sl.Depth
		}
	}
	b.buf, b.peak = b.buf[:0], 0
	if c := cap(b.buf); b.slots == a {
		if i := uint8(dp); c == defSize(d) && int(i) < perp.StackLen {
			if int64(c) <= p.limit.Load() { // push; i: the depth
				sl.Stack[i] = unsafe.Pointer(b)
				sl.Depth = dp + 1
				perp.Unpin()
				return
			}
		}
		if c > defSize(d) && c < 1<<shelved && int64(c) <= p.limit.Load() && sl.Val == nil {
			sl.Val = unsafe.Pointer(b) // it grew: the next growth here takes its array (exchange)
			perp.Unpin()
			return
		}
	}
	perp.Unpin()
	b.slots = a
	p.store(b)
}

// afterMove lets sl's stack go to the collector after a move of its P's
// default (its Buffers are of the old one; moves are rare once settled).
func (p *Pool) afterMove(sl *perp.Slot, moved bool) {
	if moved {
		sl.Depth &^= 0xff
		p.changes.Add(1)
	}
}

// fastPut reports whether Put of b takes the fast path (see putSlow).
func (p *Pool) fastPut(b *Buffer) bool {
	return !debug.Enabled && perp.OK && b != nil && p != nil && b.pool == p
}

// putSlow is Put for a nil Pool or Buffer, a foreign Buffer, the debug
// build, and where there are no per-P slots.
func (p *Pool) putSlow(b *Buffer) {
	if p == nil {
		panic("bytebuf: Pool.Put: nil *Pool")
	}
	if debug.Enabled && !debug.PutPtr(p, b) {
		return // a double Put, reported; storing it twice would hand it out twice
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
	p.putSized(b)
}

// putSized ends a Put that does not keep b on its P's stack: it empties b,
// counts the length it held in the sizing, and keeps it with its class.
func (p *Pool) putSized(b *Buffer) {
	n := b.written()
	b.buf, b.peak = b.buf[:0], 0
	if perp.OK {
		a := p.slotsNow()
		pid := perp.Pin()
		if sl := p.slots.At(a, pid); sl != nil {
			perp.Add(&sl.Puts)
			// Put's count of the length (the phase is in sl.Depth from bit 8).
			sl.Depth += 1 << 8
			if sl.Depth&((sampleEvery-1)<<8) == 0 {
				_, moved := sample(sl, n, p, p.defOf(sl.Aux))
				p.afterMove(sl, moved)
			}
			perp.Unpin()
			b.slots = a
			p.store(b)
			return
		}
		perp.Unpin()
		p.slots.Count(false)
	} else {
		p.puts.Add(1)
	}
	p.sharedObserve(n)
	p.store(b)
}

// store keeps b, empty, among the Buffers of its class, or drops it when it
// is over MaxCap or the budget.
func (p *Pool) store(b *Buffer) {
	c := cap(b.buf)
	if int64(c) > p.limit.Load() || c == 0 {
		p.drop(b)
		return
	}
	i := sizeClass(c)
	if defSize(i) != c {
		// Only an append that reallocated (AppendQuote) makes a capacity
		// that is not a power of two: rare, and not worth a class.
		p.drop(b)
		return
	}
	cp := p.classesNow()
	if debug.Enabled {
		debug.SealPoison(b, b.buf[:cap(b.buf)])
	}
	if i >= shelved {
		if b.arr.weak == (weak.Pointer[byte]{}) {
			b.arr.weak = weak.Make(unsafe.SliceData(b.buf))
		}
		b.buf = nil
	}
	cp.Put(i, b)
}

// shelved is the first class held weakly, 16 KiB. Every class is on
// shelves (perp.Shelves), which every P reaches; a Buffer of this class or
// above holds its array there only by weak pointer (buf nil), so what the
// shelves keep never counts in the live heap a collection finds, nor in
// the heap goal set from it: the collection frees it unless a Get took it
// back (unpark). Below 16 KiB, a weak pointer costs too much of an op.
const shelved = 14

// unpark takes back b's array if b holds it weakly, and reports whether b
// has one (false: the collector freed it). Never pinned: Value may park the
// goroutine during a collection (a Val held weakly died of that in a test).
func unpark(b *Buffer) bool {
	if b.buf == nil {
		if a := b.arr.weak.Value(); a != nil {
			b.buf = unsafe.Slice(a, b.arr.n)[:0]
		}
	}
	return b.buf != nil
}

// drop lets the collector have b, whose bytes leave alive at once.
func (p *Pool) drop(b *Buffer) {
	p.drops.Add(1)
	b.arr.cleanup.Stop()
	p.alive.Add(-int64(cap(b.buf)))
	b.arr = nil
	p.refreshLimit()
}

// classesNow returns the class pools, made on first need. They hang from the
// per-P array's header (perp.Header's Spare), and are freed with it, or
// where there are no per-P slots (race detector, TinyGo) classesShared's.
func (p *Pool) classesNow() *perp.Shelves[Buffer] {
	if !perp.OK {
		return p.classesShared()
	}
	h := &perp.Header(p.slotsNow()).Spare
	if cp := atomic.LoadPointer(h); cp != nil {
		return (*perp.Shelves[Buffer])(cp)
	}
	cs := perp.NewShelves[Buffer](p.topClass() + 1)
	if atomic.CompareAndSwapPointer(h, nil, unsafe.Pointer(cs)) {
		return cs
	}
	return (*perp.Shelves[Buffer])(atomic.LoadPointer(h))
}

// classesShared is classesNow where there are no per-P slots: the pool
// holds the class pools until the sweep after the next collection, as a
// sync.Pool holds its values.
func (p *Pool) classesShared() *perp.Shelves[Buffer] {
	if cp := p.classes.Load(); cp != nil {
		return cp
	}
	cs := perp.NewShelves[Buffer](p.topClass() + 1)
	if !p.classes.CompareAndSwap(nil, cs) {
		return p.classes.Load()
	}
	// No slots: only so that swept runs. After the store, so that a sweep
	// that lets the Slots go (it has no array) has let these go first.
	p.slots.MakeShort(p.swept)
	return cs
}

// swept runs after each collection's sweep (on the finalizer goroutine)
// where there are no per-P slots: it lets the class pools go.
func (p *Pool) swept(bool) { p.classes.Store(nil) }

// grow moves b to an array with room for need bytes, taken from its class
// for b's old array: the smallest power of two that holds need and as much
// again as b holds (as libp2p's buffer grows), but past twice b's capacity
// only up to the largest size a growth reached (grown). Beyond MaxCap, it is
// allocated as append would. With held, the old array goes to *held while nil.
func (p *Pool) grow(b *Buffer, need int, held **Buffer) {
	old, g := b.buf, p.grown.Load()
	target := min(need+len(old), max(need, 2*cap(old), 1<<bits.Len32(g)>>1))
	size := 1 << sizeClass(target) // 0 past 1<<63: not masked as in defSize
	if size > p.maxCapBytes() || size <= 0 {
		// The largest power of two within MaxCap, if it holds need.
		if size = defSize(p.topClass()); size < need {
			b.buf = appendGrow(old, need)
			p.recount(b, cap(old))
			return
		}
	}
	if uint32(size)&^g != 0 { // size <= MaxMaxCap; the line is written once a size
		p.grown.Or(uint32(size))
	}
	if held == nil && p.exchange(b, size) {
		return
	}
	h := p.fromClass(sizeClass(size), &p.growNews)
	if debug.Enabled {
		debug.Check(p, unsafe.Pointer(h), h.buf[:cap(h.buf)], debug.Poison)
	}
	b.buf, h.buf = h.buf[:len(old)], old[:0]
	copy(b.buf, old)
	b.arr, h.arr = h.arr, b.arr
	if held != nil && *held == nil {
		*held = h
		return
	}
	p.store(h)
}

// giveBack stores the Buffer in *held, if any: the array a ReadFrom kept.
func (p *Pool) giveBack(held **Buffer) {
	if held != nil && *held != nil {
		p.store(*held)
	}
}

// exchange is grow's fast path: when the calling goroutine's P keeps a
// Buffer of capacity size (Put keeps the last that grew, below 16 KiB, in
// the P's Val), b takes its array and gives it its own, which goes on the
// P's stack, in one pinned section, and it reports true.
func (p *Pool) exchange(b *Buffer, size int) bool {
	old := b.buf
	if debug.Enabled || !perp.OK || len(old) > 16<<10 { // the most it copies pinned
		return false
	}
	a := p.slots.Load()
	pid := perp.Pin()
	sl := p.slots.At(a, pid)
	if sl == nil {
		perp.Unpin()
		return false
	}
	v := sl.Val
	if v == nil || cap((*Buffer)(v).buf) != size {
		perp.Unpin()
		return false
	}
	sl.Take() // nil if the sweep emptied it since: v is this goroutine's either way
	h := (*Buffer)(v)
	b.buf, h.buf = h.buf[:len(old)], old[:0]
	copy(b.buf, old)
	b.arr, h.arr = h.arr, b.arr
	// Put's push of h to the stack, if its sizing has begun (see defOf).
	if dp, aux := sl.Depth, sl.Aux; h.slots == a && aux&0xff80 != 0 && dp&0xff < perp.StackLen &&
		cap(old) == defSize(sizerDef(aux)) && int64(cap(old)) <= p.limit.Load() {
		sl.Stack[dp&0xff] = v
		sl.Depth = dp + 1
		perp.Unpin()
		return true
	}
	perp.Unpin()
	p.store(h)
	return true
}

// recount counts b's array, which an append put in place of one of
// capacity old, in alive instead of that one, and in growNews.
func (p *Pool) recount(b *Buffer, old int) {
	p.growNews.Add(1)
	b.arr.cleanup.Stop()
	p.alive.Add(-int64(old))
	b.arr = p.count(b.buf)
}

// Stats is a snapshot of a Pool's counters and sizing.
type Stats struct {
	// Gets and Puts count the calls; Puts only those of Buffers of this
	// pool. News counts the Gets that made a Buffer (the hit ratio is 1 -
	// News/Gets), GrowNews the arrays growth made, Drops the Buffers Put
	// did not keep: over MaxCap or the budget, or not made by a Pool.
	Gets, Puts, News, GrowNews, Drops uint64
	// DefaultCap is the capacity Get hands out on the first P (each sizes its own).
	DefaultCap int
	// KeepCap is the largest capacity the pool keeps: MaxCap.
	KeepCap int
	// RetainedBytes is the capacity of the arrays of the Buffers this pool
	// made that the collector has not freed: those kept, and those in use.
	// It bounds what the pool retains from above.
	RetainedBytes int64
	// Calibrations counts the moves of a default capacity.
	Calibrations uint64
}

// Stats returns the pool's counters. Under concurrent use each is read on
// its own, so they need not agree with each other.
func (p *Pool) Stats() Stats {
	gets, puts := p.slots.Counters()
	def := p.sharedDef()
	if perp.OK {
		// slotsNow, not Load: right after a sweep the array is held
		// only weakly, and its sizing state is still the pool's.
		def = p.defOf(atomic.LoadUintptr(&p.slotsNow().Aux))
	}
	return Stats{
		Gets:          gets + p.gets.Load(),
		Puts:          puts + p.puts.Load(),
		News:          p.news.Load(),
		GrowNews:      p.growNews.Load(),
		Drops:         p.drops.Load(),
		DefaultCap:    defSize(def),
		KeepCap:       p.maxCapBytes(),
		RetainedBytes: p.alive.Load(),
		Calibrations:  p.changes.Load(),
	}
}
