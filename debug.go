package reuse

import "github.com/reuse-go/reuse/internal/debug"

// Debug is true when the module is built with -tags reusedebug, the debug
// build in which every pool of the module checks how it is used: see Misuse.
// Tests that count allocations exactly can skip when it is true, since the
// debug build allocates its bookkeeping.
const Debug = debug.Enabled

// Misuse is a bug in the use of a pool, found by the debug build (-tags
// reusedebug). A normal build checks nothing and never reports a Misuse.
//
// In the debug build every pool of the module (Pool, and the pools of the
// subpackages) checks its callers:
//
//   - Double Put: a Put of an object already put back and not taken out
//     since is reported with the stacks of both Puts, and the object is not
//     stored a second time, so two callers never get it at once. Objects are
//     told apart by identity: a pointer, a map, a channel, or a slice's first
//     element.
//   - Use after Put, at the call: a method of a bytebuf.Buffer (Write,
//     Bytes, Len, any of them) called after the Buffer's Put and before the
//     pool hands it out again is reported at once, on the caller's
//     goroutine, naming the method; by default it panics there.
//   - Use after Put, at the next Get: byte buffers and slices of numbers are
//     filled with a poison pattern (0xDE 0xAD 0xBE 0xEF, repeated) on Put,
//     and the next Get of the same memory checks it, so a write after Put
//     through a slice (what Bytes or AvailableBuffer returned, a Slices
//     slice) is reported there, which in a server is another request's
//     goroutine, and a stale reader sees poison instead of another
//     caller's data. A Pool[T] does not poison: it snapshots, after Reset,
//     the memory a pointer T points to (or a slice T's elements up to cap)
//     and reports when the next Get finds it changed.
//   - Leaks: an object taken by Get and collected by the garbage collector
//     without being Put back or given up with Discard is reported with the
//     call site of its Get. Reports arrive some time after the collection,
//     from another goroutine; for a Slices, a few collections later, once no
//     Put of a larger array shows that append replaced it.
//
// What cannot be detected: for a Pool[T] whose T is a struct, string, number,
// interface or func value, nothing (the pool holds a copy, with no identity);
// for a pointer T, writes to memory reachable only through the pointed-to
// value's own pointers (a *bytes.Buffer's bytes; the bytes pools poison those
// instead); a read after Put through a slice, which writes nothing; a write
// through a slice after Put undone before the next Get; any use after the
// pool handed the object out again, when it is the next caller's (a
// bytebuf.Buffer method included: the debug build does not hold objects
// back); a use after Put of an object
// the pool dropped (the garbage collector or Accept); a leak of a Slices
// slice that coincides with the Put of a larger array the pool did not hand
// out (which append could have made to replace it), while a slice whose
// replacement by append is held through several collections before its Put
// is reported; leaks of Pool[T] slices, whose array append may replace
// before Put; leaks of objects of 16
// bytes or less without pointers, which the runtime may batch so that they
// are never collected on their own; and leaks under TinyGo, which implements
// neither runtime.AddCleanup nor weak pointers.
//
// The bookkeeping lives in side tables keyed by weak pointers to the objects,
// so it keeps nothing alive: pools and their objects are collected as usual.
// It costs a lock, a stack capture and, for poisoned or snapshotted memory, a
// pass over it on each Put and each Get, which makes a Get/Put pair many
// times slower (benchmarks/README.md has the figures), and no allocation
// once an object has been seen, so allocation tests still hold.
// That is for tests, not production. Under TinyGo records are never
// freed, so memory grows with the number of distinct objects pooled.
//
// A normal build has none of it: every hook sits behind the constant Debug,
// and the compiler removes them, so Get and Put compile to the same code as
// in a module without the debug build.
type Misuse struct {
	// Kind is DoublePut, UseAfterPut or Leak.
	Kind MisuseKind
	// Pool names the pool by type and address, as in
	// "*reuse.Pool[*bytes.Buffer] at 0xc000012000", with byte for uint8
	// ("*reuse.Slices[byte]"), or by the type its callers hold
	// ("gzpool.Writer (pool at 0xc000012000)").
	Pool string
	// Detail says what happened in one line, with the call sites and, for
	// a leak, the call that took the object ("gzpool.NewWriter").
	Detail string
	// Site is "file:line" of the caller's call that misused the pool (the
	// second Put, the call after Put, the next Get that found a write), or
	// of the Get of a leaked object. The stacks start there too: the
	// module's own frames before it are left out.
	Site string
	// Stacks holds the labelled stacks: both Puts of a double Put, the Put and
	// the next Get of a use after Put, the Get of a leak.
	Stacks string
}

// String formats m as a multi-line message starting with "reuse: ", the kind
// and the pool, then the stacks. It is what the default panics with or
// prints.
func (m Misuse) String() string {
	return m.report().String()
}

func (m Misuse) report() debug.Report {
	return debug.Report{Kind: debug.Kind(m.Kind), Pool: m.Pool, Detail: m.Detail, Site: m.Site, Stacks: m.Stacks}
}

// MisuseKind is the kind of a Misuse.
type MisuseKind uint8

// The kinds of Misuse.
const (
	// DoublePut is a Put of an object already put back and not taken since.
	DoublePut = MisuseKind(debug.DoublePut)
	// UseAfterPut is an object used after its Put: a method called on it,
	// or its memory changed before its next Get.
	UseAfterPut = MisuseKind(debug.UseAfterPut)
	// Leak is an object taken by Get and collected without Put.
	Leak = MisuseKind(debug.Leak)
)

// String returns "double Put", "use after Put" or "leak".
func (k MisuseKind) String() string { return debug.Kind(k).String() }

// SetMisuseHandler makes the debug build send every Misuse to f instead of
// the default, and returns the previous handler (nil for the default). A nil
// f restores the default, which the environment variable REUSEDEBUG sets per
// kind, GODEBUG-style, as a comma-separated list of kind=action:
//
//	kinds:   doubleput, useafterput, leak, all
//	actions: panic  panic with the Misuse's String
//	         log    print it, with its stacks, to standard error
//	         off    ignore it
//
// Without REUSEDEBUG, a double Put and a use after Put panic, in the
// goroutine that made the faulty call (the second Put, the method called
// after Put) or, for a write through a slice after Put, the next Get of that
// memory, and a leak is logged: a leak is found on
// the runtime's cleanup goroutine, where a panic would end the program.
// REUSEDEBUG=leak=panic restores that panic. REUSEDEBUG is read once, at the
// first report without a handler; invalid entries are ignored with a
// warning on standard error.
//
// A leak goes to the handler that was in place when Get took the object,
// even if another has replaced it since: a leak of an object taken during a
// test that called reusetest.FailOnMisuse fails that test, never another.
//
// f may be called from any goroutine, concurrently; a leak is reported some
// time after the object is collected. In tests, reusetest.FailOnMisuse routes
// misuses to t.Errorf for the duration of a test. In a normal build f is kept
// but never called.
func SetMisuseHandler(f func(Misuse)) (previous func(Misuse)) {
	var h *debug.Handler
	if f != nil {
		h = &debug.Handler{
			F: func(r debug.Report) {
				f(Misuse{Kind: MisuseKind(r.Kind), Pool: r.Pool, Detail: r.Detail, Site: r.Site, Stacks: r.Stacks})
			},
			Orig: f,
		}
	}
	old := debug.Swap(h)
	if old == nil {
		return nil
	}
	if orig, ok := old.Orig.(func(Misuse)); ok {
		return orig
	}
	// Installed by another package of the module (reusetest).
	return func(m Misuse) { old.F(m.report()) }
}

// debugPut is Pool.Put's first hook: it reports a double Put and returns
// false when x must not be stored.
func debugPut[T any](p *Pool[T], x T) bool {
	obj, _, _ := debug.Value(&x)
	return debug.Put(p, obj)
}

// debugSeal is Pool.Put's last hook, right before x is stored: it snapshots
// x's memory.
func debugSeal[T any](x T) {
	if obj, mem, _ := debug.Value(&x); obj != nil && mem != nil {
		debug.Seal(obj, mem, debug.Snapshot)
	}
}

// debugGot is Pool.Get's hook, for the value about to be returned.
func debugGot[T any](p *Pool[T], x T) {
	obj, mem, leaks := debug.Value(&x)
	if obj == nil {
		return
	}
	debug.Got(p, obj, leaks && debug.Leaks)
	if mem != nil {
		debug.Check(p, obj, mem, debug.Snapshot)
	}
}

// debugSlicesPut is Slices.Put's first hook: it reports a double Put of x's
// array and returns false when x must not be stored.
func debugSlicesPut[E any](s *Slices[E], x []E) bool {
	obj, mem, _ := debug.Slice(x)
	return debug.PutSlice(s, obj, len(mem))
}

// debugSlicesSeal is Slices.Put's hook after any clearing, before x is kept
// or dropped: it poisons x up to its capacity, or, for elements that cannot
// hold poison and for a pool that promises zeroed slices, snapshots it.
func debugSlicesSeal[E any](x []E, zero bool) {
	obj, mem, mode := debug.Slice(x)
	if zero {
		mode = debug.Snapshot
	}
	debug.Seal(obj, mem, mode)
}

// debugSlicesGot is Slices.Get's hook for a slice taken from the pool. Its
// array's leak goes through the pool's ledger (debug.GotSlice): append may
// replace the array before a correct Put of the new one.
func debugSlicesGot[E any](s *Slices[E], x []E, zero bool) {
	obj, mem, mode := debug.Slice(x[:cap(x)])
	if zero {
		mode = debug.Snapshot
	}
	debug.GotSlice(s, obj, len(mem))
	debug.Check(s, obj, mem, mode)
}

// debugSlicesNew is Slices.Get's hook for a slice it made, of a capacity
// the pool keeps.
func debugSlicesNew[E any](s *Slices[E], x []E) {
	obj, mem, _ := debug.Slice(x)
	debug.GotSlice(s, obj, len(mem))
}
