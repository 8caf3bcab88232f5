// Package reuse makes memory reuse in hot paths safe, fast and measurable.
//
// The root package holds the typed core: [Pool], a generic pool over
// sync.Pool with reset and accept hooks, zero allocations for any element
// type and cheap statistics, and [Slices], a size-classed pool of slices whose
// retained memory is bounded from the first call. The subpackages:
//
//   - bytebuf: byte buffers, in a pool whose retention is bounded;
//   - codec: the engine behind the pooled compressors, for plugging in one of
//     your own;
//   - gzpool, zlibpool, flatepool: pooled compress/gzip, compress/zlib and
//     compress/flate readers and writers;
//   - bufiopool: pooled bufio readers and writers;
//   - jsonpool: JSON encoding and decoding through pooled encoders and
//     buffers;
//   - httpcompress: compression of HTTP responses, and of gzip request
//     bodies, with pooled compressors;
//   - reusetest: test helpers that measure allocations, route the debug
//     build's reports to the test that caused them and wait for the garbage
//     collector.
//
// Eight nested modules keep their dependencies out of this one. Three are
// libraries: kgzip (gzpool over github.com/klauspost/compress),
// httpcompress/khttp (httpcompress over klauspost/compress, with zstd) and
// reuseprom (the pools' counters for Prometheus). poolvet is a go vet
// analyzer for pool misuse, over golang.org/x/tools. The other four are not
// imported: cmd/reuse/advise (a command), benchmarks, ports (other
// projects' pooling, for comparison) and examples.
//
// A Pool needs no constructor:
//
//	var buffers = reuse.Pool[*bytes.Buffer]{
//		New:    func() *bytes.Buffer { return new(bytes.Buffer) },
//		Reset:  (*bytes.Buffer).Reset,
//		Accept: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 },
//	}
//
// # What Pool adds to sync.Pool
//
//   - Types: Get returns a T; there is no type assertion to get wrong.
//   - No boxing: storing a non-pointer such as a []byte or a struct in a
//     sync.Pool allocates on every Put (pitfall P4). Pool stores pointer-shaped
//     types (pointers, maps, channels, funcs, interfaces) as they are and every
//     other type through a *T box that it recycles, so Put allocates nothing
//     for any T. The choice is made once per pool, at its first Put.
//   - Reset runs on Put, so Get never returns another user's data (P3).
//   - Accept runs on Put first and can refuse a value, say a buffer that grew
//     too large to be worth keeping (P7).
//   - A nil pointer, slice, map, channel, func or interface is never kept;
//     under TinyGo, whose sync.Pool stores what it is given, a kept nil would
//     come back from the next Get.
//   - Stats counts News (pool misses) and Drops always, and every Get and Put
//     when CountAll is set.
//
// # Ownership
//
// Put transfers ownership of the value to the pool. The caller must not use
// the value, or anything it shares memory with (a slice's array, a buffer's
// Bytes), after Put: another goroutine may already have it (pitfall P2). The
// classic mistake is
//
//	defer pool.Put(buf)
//	return buf.Bytes() // the caller reads memory the pool has handed on
//
// Copy what must outlive the Put first. The debug build (-tags reusedebug)
// reports double Puts and, for buffers and slices, writes after Put.
//
// # Concurrency
//
// Get, Put and Stats are safe for use by multiple goroutines. The hooks
// (New, Reset, Accept) are called by those goroutines concurrently and must be
// safe for that too. The fields must be set before first use and not changed
// afterwards; a Pool must not be copied after first use (go vet reports
// copies).
//
// # Retention
//
// A Pool keeps one value per processor (P) in a slot of its own, in front of
// a sync.Pool that holds the rest. The slot is what makes Pool as fast as a
// bare sync.Pool of pointers, and faster than any sync.Pool for value types:
// a Get that follows a Put on the same P is a pin and two plain memory
// accesses, with no interface and no box.
//
// The sync.Pool behind the slots forgets its contents over two garbage
// collections (pitfall P6), and the slots follow one rule of the same kind,
// shared by Pool, [Slices] and bytebuf.Pool: after each collection, a slot
// from which nothing was taken since the previous collection is emptied. So a
// value Put into a pool nobody takes from survives the next collection and
// is released by the one after, as sync.Pool releases it; in a pool in use, a
// slot keeps its value through a collection (a second chance, so that a pool
// of costly values such as gzip writers is not rebuilt at every collection).
// bytebuf.Pool's slots decline it: a Buffer is cheap to make again, and with
// many Ps the second chance kept one Buffer per P through one more collection
// than a sync.Pool keeps its values.
// For a T that is not one pointer word, the slot holds the value in a box of
// its own, which keeps a copy of the value a Get took until the next Put on
// that P overwrites it: still at most one value per P.
// A pool left idle keeps nothing per P after two collections, not even the
// slots themselves, and slots of processors that GOMAXPROCS no longer runs
// are emptied the same way. A pool first used with few processors gives a
// slot to every processor once GOMAXPROCS grows (Go 1.25 and later change
// GOMAXPROCS at run time when a container's CPU limit changes). Where
// retention matters (values of megabytes), use Accept to refuse large values.
// The bound on what one value may pin is Accept's business; [Slices] and
// bytebuf.Pool enforce theirs from the first call.
//
// Under the race detector, under TinyGo and with the build tag
// reuse_nolinkname there are no slots: the pool is a sync.Pool alone. The
// slots need the runtime's procPin, which the module reaches with
// //go:linkname; Go tolerates that for widely used packages but does not
// promise it, and reuse_nolinkname is the exit should a Go release close the
// door.
//
// # Cost of counting
//
// Every Get and Put that finds the caller's per-P slot counts itself there
// with one plain increment, on a line it touches anyway: no locked
// instruction, no shared cache line, and less than a test of whether to
// count. CountAll decides whether Stats reports those counts. Where a 64-bit
// store may tear (32-bit platforms) the increment is an atomic add, made only
// for a pool with CountAll set, and where there are no slots a pool with
// CountAll set counts with an atomic add to a counter all Ps share.
//
// benchmarks/README.md gives what counting costs, in instructions and in
// time.
//
// # When not to pool
//
// Pooling has a fixed cost of a few nanoseconds per Get/Put pair, and a
// pooled buffer must usually be cleared to behave like a fresh one. Against
// make([]byte, n) plus the same use (BenchmarkCrossover; the pooled buffer
// is cleared each time, to match make; benchmarks/README.md has the figures),
// pooling a pointer paid from about 16 B on the reference machine, and
// allocating is as cheap below that (pitfall P8); a value stored without a pointer in a plain
// sync.Pool pays an allocation on every Put and only wins from about 256 B.
//
// # Debug build
//
// Built with -tags reusedebug, every pool of the module reports a double Put,
// a use after Put (a bytebuf.Buffer method called after Put, at the call; a
// write through a slice after Put, by poison or snapshot, at the next Get)
// and an object collected without Put; see [Misuse] for what it can and
// cannot see, and [SetMisuseHandler] and reusetest.FailOnMisuse for where
// reports go: by default a double Put or use after Put panics, on the
// goroutine that found it (the faulty call's, except for a write through a
// slice: the next Get's), and a leak is printed to standard error, and the
// REUSEDEBUG environment variable changes that per kind. A value given up on purpose is not a leak when the
// code says so with the pool's Discard ([Pool.Discard]). It
// costs microseconds per Get/Put pair, mostly runtime.Callers
// (benchmarks/README.md has the figures), and allocates nothing in steady
// state. Without the tag the hooks compile away: the pool methods' machine
// code is the same instruction for instruction.
//
// # TinyGo
//
// TinyGo's sync.Pool is a mutex and a slice that the garbage collector never
// empties. Pool works there unchanged, but the two-collection bound above does
// not hold: the pool keeps every value put back, so what it retains is bounded
// only by the most values that were out at once (when only values from Get
// are Put) and by Accept. Set Accept to refuse large values. Put never stores
// nil, which TinyGo's sync.Pool would hand back to the next Get. Per-processor
// counters fall back to atomic adds on one cell, and the debug build's leak
// detection is off.
package reuse
