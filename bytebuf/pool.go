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

// classOf returns the smallest class whose arrays hold n bytes.
func classOf(n int) int { return bits.Len(uint(max(n, 1) - 1)) }

// sizeOf returns 1<<c, class c's size (0 <= c < 64: the mask spares a range test).
func sizeOf(c int) int { return 1 << (uint(c) & 63) }

// maxClass returns the largest default class: that of the largest power of
// two within MaxCap, so that a Buffer of the default capacity is always kept.
func (p *Pool) maxClass() int { return bits.Len(uint(p.maxCapBytes())) - 1 }

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
	// reads it with the slots' array pointer, which it shares a line with.
	limit atomic.Int64
	// slots holds each P's Buffers at hand and its sizing state (see
	// slot). Every Buffer points to the slot it was last Put on, so that
	// the array, the sizing it holds and the class pools it hangs on to
	// last as long as any Buffer does after a sweep let the array go.
	slots perp.Slots[slot, sizer, *slot]
	// classes holds the Buffers by class where there are no per-P slots
	// (see shelves).
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
		mu  sync.Mutex   // protects st
		st  sizer        //
		def atomic.Int32 // st's default class once it has sampled, for Get and Stats; 0 before
	}

	_ [64]byte // counters written on rare events: keep off the lines above

	news, growNews, drops, changes atomic.Uint64
	// hint is the class the last window of any P moved to, 0 before any
	// (see sizer.class).
	hint atomic.Int32
	// grown has a bit set for each size a growth reached (see resize).
	grown atomic.Uint32
}

// slot is a Pool's slot of one P: the Buffers it keeps at hand, and the
// P's sizing state (State, a sizer).
type slot struct {
	perp.Base[sizer]
	depth uint8 // the number of Buffers on the stack
	// stack holds Buffers of the P's default class, stack[:depth]; Put
	// empties it when the default moves. The sweep may empty any entry.
	stack [stackLen]*Buffer
	// grown is the last Buffer that grew on this P, whose array the next
	// growth on the P takes (see exchange). The sweep may empty it.
	grown *Buffer
	// classes, in P 0's slot only, holds the pool's Buffers by class, for
	// every P (see shelves): so they are freed with the array.
	classes atomic.Pointer[perp.Shelves[Buffer]]
	_       [perp.SlotSize - unsafe.Sizeof(perp.Base[sizer]{}) - (stackLen+3)*unsafe.Sizeof(uintptr(0))]byte // depth takes a word
}

// stackLen is the number of Buffers a P keeps at hand.
const stackLen = 6

// Sweep is a Pool's retention rule, applied to each slot after every
// collection: every slot is emptied, so that a Buffer Put lasts no longer
// than in a sync.Pool (a Buffer is cheap to make again, and keeping one per
// P one collection more held more the more Ps there were). The array then
// goes to the victim, which lives while any of its Buffers does.
func (sl *slot) Sweep(bool) (held bool) {
	for i := range sl.stack {
		perp.Empty(&sl.stack[i])
	}
	perp.Empty(&sl.grown)
	return false
}

// push keeps b, emptied, on sl's stack when it is of the P's default class,
// within the limit, and the stack has room; it reports whether it did. The
// caller is pinned to sl's P.
func (sl *slot) push(b *Buffer, limit int64) bool {
	c := cap(b.buf)
	if c != sl.State.size() || int64(c) > limit || sl.depth >= stackLen {
		return false
	}
	sl.stack[sl.depth] = b
	sl.depth++
	return true
}

// keepGrown keeps b, emptied, as sl's grown Buffer when it is larger than
// the P's default, below 16 KiB and within the limit, and the P keeps none
// yet: it grew, and the next growth on the P takes its array (see
// exchange). It reports whether it did. The caller is pinned to sl's P.
func (sl *slot) keepGrown(b *Buffer, limit int64) bool {
	c, d := cap(b.buf), sl.State.size()
	if d == 0 || c <= d || c >= sizeOf(shelved) || int64(c) > limit || sl.grown != nil {
		return false
	}
	sl.grown = b
	return true
}

// def returns the P's default class (how it moves is in size.go).
func (s *sizer) def() int { return initialClass + int(s.off) }

// begun reports whether the P has counted a sample since its first window
// began, or ended one: its default is then its own, not the pool's hint.
func (s *sizer) begun() bool { return s.settled || s.w.n != 0 }

// size returns the capacity of the P's default class, or 0 while its sizing
// has not begun: the P then keeps no Buffer at hand, as the class Get hands
// out on it is the pool's hint (see class).
func (s *sizer) size() int {
	if !s.settled && s.w.n == 0 {
		return 0
	}
	return 1 << (initialClass + int(s.off)) // a class below 64
}

// class returns the class Get hands out on the P: its default, or where its
// sizing has not begun, the class the last window of any P moved to (the
// hint), if any.
func (s *sizer) class(p *Pool) int {
	if !s.settled && s.w.n == 0 {
		if h := p.hint.Load(); h != 0 {
			return int(h)
		}
	}
	return initialClass + int(s.off)
}

// array is what a Pool knows of an array of its Buffers; it moves with it.
type array struct {
	n       int                // the capacity
	cleanup runtime.Cleanup    // counts it in alive until the collector frees it
	weak    weak.Pointer[byte] // made at its first time on a shelf (see shelved)
}

// countedArray is the argument of the cleanup of an array whose size is not
// a power of two: its pool and its size. uncounts[c] is the cleanup of an
// array of sizeOf(c) bytes, whose argument is the pool alone (a box of 8
// bytes).
type countedArray struct {
	p *Pool
	n int64
}

var uncounts [64]func(*Pool)

func uncount(a countedArray) { a.p.alive.Add(-a.n); a.p.refreshLimit() }

func init() {
	for c := range uncounts {
		uncounts[c] = func(p *Pool) { uncount(countedArray{p, int64(sizeOf(c))}) }
	}
}

// count counts buf's array in alive until the collector frees it.
func (p *Pool) count(buf []byte) *array {
	a := &array{n: cap(buf)} // at least 64: newBuffer's sizes, appendGrow's
	p.alive.Add(int64(a.n))
	if c := bits.TrailingZeros(uint(a.n)); a.n == sizeOf(c) {
		a.cleanup = runtime.AddCleanup(unsafe.SliceData(buf), uncounts[c], p)
	} else {
		a.cleanup = runtime.AddCleanup(unsafe.SliceData(buf), uncount, countedArray{p, int64(a.n)})
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

// Get returns an empty Buffer (unless written after its Put: see Ownership in
// the package doc) whose capacity is the default capacity of the calling
// goroutine's processor, from the pool or new. The caller owns it until it
// passes it to Put.
func (p *Pool) Get() *Buffer {
	if p == nil {
		panic("bytebuf: Pool.Get: nil *Pool")
	}
	if !perp.OK {
		p.slots.CountGet()
		return p.handOut(p.fromShelves(p.sharedClass(), &p.news))
	}
	for {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		if sl := p.slots.At(pid); sl != nil {
			sl.CountGet(true)
			// A popped entry stays (no write barrier); one may be nil after a sweep.
			var b *Buffer
			if sl.depth > 0 {
				sl.depth--
				b = sl.stack[sl.depth]
			}
			if b != nil {
				perp.Unpin()
			} else {
				c := sl.State.class(p)
				perp.Unpin()
				b = p.fromShelves(c, &p.news)
				b.home = sl
			}
			return p.handOut(b)
		}
		perp.Unpin()
		p.slots.Grow() // the first use, or the first after a sweep let the array go
	}
}

// handOut is the end of every Get: the debug build's checks of b.
func (p *Pool) handOut(b *Buffer) *Buffer {
	if debug.Enabled {
		debug.GotPoisoned(p, b, b.buf[:cap(b.buf)])
	}
	return b
}

// fromShelves returns an empty Buffer of capacity sizeOf(c), kept or new
// (counted in *made).
func (p *Pool) fromShelves(c int, made *atomic.Uint64) *Buffer {
	cs := p.shelves()
	for b := cs.Get(c); b != nil; b = cs.Get(c) {
		// Take back the array b holds weakly (see shelved), unless the
		// collector freed it. Never pinned: Value may park the goroutine
		// during a collection.
		if b.buf == nil {
			if a := b.arr.weak.Value(); a != nil {
				b.buf = unsafe.Slice(a, b.arr.n)[:0]
			}
		}
		if b.buf != nil {
			return b
		}
	}
	made.Add(1)
	return p.newBuffer(sizeOf(c))
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
	if !p.common(b) && !p.admit(b) {
		return
	}
	n := max(b.peak, len(b.buf)) // the largest length b held since its Get (see peak)
	b.buf, b.peak = b.buf[:0], 0
	if !perp.OK {
		p.slots.CountPut()
		p.sharedSample(n)
		p.store(b)
		return
	}
	for {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		if sl := p.slots.At(pid); sl != nil {
			sl.CountPut(true)
			s := &sl.State
			if s.phase++; s.phase%sampleEvery == 0 { // a sample (see size.go)
				if s.begun() && !s.last() {
					s.w.count(classOf(n), s.def())
				} else if s.turn(n, p) {
					sl.depth = 0 // the stack's Buffers are of the old default: the collector's
					p.changes.Add(1)
				}
			}
			if b.home != sl { // a load of b's line, not a store with a write barrier check
				b.home = sl
			}
			limit := p.limit.Load()
			if sl.push(b, limit) {
				perp.Unpin()
				return
			}
			if sl.keepGrown(b, limit) {
				perp.Unpin()
				return
			}
			perp.Unpin()
			p.store(b)
			return
		}
		perp.Unpin()
		p.slots.Grow() // the first use, or the first after a sweep let the array go
	}
}

// common reports whether Put may skip admit: b is p's own, in a plain build.
func (p *Pool) common(b *Buffer) bool { return p != nil && b != nil && b.pool == p && !debug.Enabled }

// admit is Put's check where common fails: a nil Pool or Buffer, one of
// another Pool, the debug build's double Put. It reports whether Put keeps b.
func (p *Pool) admit(b *Buffer) bool {
	if p == nil {
		panic("bytebuf: Pool.Put: nil *Pool")
	}
	if debug.Enabled && !debug.PutPtr(p, b) {
		return false // a double Put, reported; storing it twice would hand it out twice
	}
	if b == nil {
		return false
	}
	if b.pool != p {
		if b.pool != nil {
			panic("bytebuf: Pool.Put: Buffer from another Pool")
		}
		p.drops.Add(1)
		return false
	}
	if debug.Enabled { // here, not in store alone: a P's stack keeps b too
		debug.SealPoison(b, b.buf[:cap(b.buf)])
	}
	return true
}

// store keeps b, empty, on the shelf of its class, or drops it when it is
// over MaxCap or the budget.
func (p *Pool) store(b *Buffer) {
	c := cap(b.buf)
	i := classOf(c)
	if int64(c) > p.limit.Load() || c == 0 || sizeOf(i) != c {
		// Only an append that reallocated (AppendQuote) makes a capacity
		// that is not a power of two: rare, and not worth a class.
		p.drop(b)
		return
	}
	cs := p.shelves()
	if debug.Enabled {
		debug.SealPoison(b, b.buf[:cap(b.buf)])
	}
	if i >= shelved {
		if b.arr.weak == (weak.Pointer[byte]{}) {
			b.arr.weak = weak.Make(unsafe.SliceData(b.buf))
		}
		b.buf = nil
	}
	cs.Put(i, b)
}

// shelved is the first class held weakly, 16 KiB. Every class is on
// shelves (perp.Shelves), which every P reaches; a Buffer of this class or
// above holds its array there only by weak pointer (buf nil), so what the
// shelves keep never counts in the live heap a collection finds, nor in
// the heap goal set from it: the collection frees it unless a Get took it
// back (unpark). Below 16 KiB, a weak pointer costs too much of an op.
const shelved = 14

// drop lets the collector have b, whose bytes leave alive at once.
func (p *Pool) drop(b *Buffer) {
	p.drops.Add(1)
	b.arr.cleanup.Stop()
	p.alive.Add(-int64(cap(b.buf)))
	b.arr = nil
	p.refreshLimit()
}

// shelves returns the pool's Buffers by class (perp.Shelves), made on first
// need. They hang from P 0's slot, and are freed with the array; where there
// are no per-P slots (race detector, TinyGo), from the pool until the sweep
// after the next collection, as a sync.Pool holds its values.
func (p *Pool) shelves() *perp.Shelves[Buffer] {
	if !perp.OK {
		return p.sharedShelves()
	}
	first := p.slots.First()
	for first == nil {
		p.slots.Grow()
		first = p.slots.First()
	}
	if cs := first.classes.Load(); cs != nil {
		return cs
	}
	cs := perp.NewShelves[Buffer](p.maxClass() + 1)
	if first.classes.CompareAndSwap(nil, cs) {
		return cs
	}
	return first.classes.Load()
}

// sharedShelves is shelves where there are no per-P slots.
func (p *Pool) sharedShelves() *perp.Shelves[Buffer] {
	if cs := p.classes.Load(); cs != nil {
		return cs
	}
	cs := perp.NewShelves[Buffer](p.maxClass() + 1)
	if !p.classes.CompareAndSwap(nil, cs) {
		return p.classes.Load()
	}
	// After the store, so that a sweep that lets the Slots go has let
	// these go first.
	p.slots.OnSweep(p.swept)
	return cs
}

// swept runs after each collection's sweep (on the finalizer goroutine)
// where there are no per-P slots: it lets the shelves go, and the sweep
// with them until sharedShelves makes new ones.
func (p *Pool) swept(bool) (keep bool) {
	p.classes.Store(nil)
	return false
}

// resize moves b to an array with room for need bytes, taken from its class
// for b's old array: the smallest power of two that holds need and as much
// again as b holds (as libp2p's buffer grows), but past twice b's capacity
// only up to the largest size a growth reached (grown). Beyond MaxCap, it is
// allocated as append would. With held, the old array goes to *held while nil.
func (p *Pool) resize(b *Buffer, need int, held **Buffer) {
	old, g := b.buf, p.grown.Load()
	target := min(need+len(old), max(need, 2*cap(old), 1<<bits.Len32(g)>>1))
	size := 1 << classOf(target) // 0 past 1<<63, where sizeOf would wrap
	if size > p.maxCapBytes() || size <= 0 {
		// The largest power of two within MaxCap, if it holds need.
		if size = sizeOf(p.maxClass()); size < need {
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
	h := p.fromShelves(classOf(size), &p.growNews)
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

// exchange is resize's fast path: when the calling goroutine's P keeps a
// grown Buffer of capacity size (see Put), b takes its array and gives it
// its own, which goes on the P's stack, in one pinned section, and it
// reports true.
func (p *Pool) exchange(b *Buffer, size int) bool {
	old := b.buf
	if debug.Enabled || !perp.OK || len(old) > 16<<10 { // the most it copies pinned
		return false
	}
	pid := perp.Pin()
	sl := p.slots.At(pid)
	if sl == nil {
		perp.Unpin()
		return false
	}
	h := sl.grown // once: the sweep may empty it
	if h == nil || cap(h.buf) != size {
		perp.Unpin()
		return false
	}
	sl.grown = nil
	b.buf, h.buf = h.buf[:len(old)], old[:0]
	copy(b.buf, old)
	b.arr, h.arr = h.arr, b.arr
	if sl.push(h, p.limit.Load()) {
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
	// Gets and Puts count every call, always; Puts only those of Buffers
	// of this pool. News counts the Gets that made a Buffer (the hit ratio
	// is 1 - News/Gets), GrowNews the arrays growth made, Drops the Buffers
	// Put did not keep: over MaxCap or the budget, or not made by a Pool.
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
	if p == nil {
		panic("bytebuf: Pool.Stats: nil *Pool")
	}
	gets, puts := p.slots.Counters()
	def := p.sharedClass()
	if perp.OK {
		// P 0's sizing, read without pinning: a racy snapshot. Grow, not
		// First alone: right after a sweep the array is held only as the
		// victim, and its sizing state is still the pool's.
		first := p.slots.First()
		for first == nil {
			p.slots.Grow()
			first = p.slots.First()
		}
		def = first.State.class(p)
	}
	return Stats{
		Gets:          gets,
		Puts:          puts,
		News:          p.news.Load(),
		GrowNews:      p.growNews.Load(),
		Drops:         p.drops.Load(),
		DefaultCap:    sizeOf(def),
		KeepCap:       p.maxCapBytes(),
		RetainedBytes: p.alive.Load(),
		Calibrations:  p.changes.Load(),
	}
}
