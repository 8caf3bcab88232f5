// Package bytebuf provides Buffer, a byte buffer for building output, and
// Pool, a pool of Buffers that learns the sizes written into them and keeps
// its memory within a bound from its first call.
//
// Buffer has the write side of bytes.Buffer (Write, WriteString, WriteByte,
// WriteRune, ReadFrom, WriteTo, Bytes, String, Len, Cap, Reset, Grow,
// Truncate, AvailableBuffer), checked against it by a differential fuzz
// test, and Append methods that format integers, floats, booleans, quoted
// strings and times into it without allocating.
//
// Pool hands out Buffers:
//
//	var pool bytebuf.Pool // ready to use
//
//	buf := pool.Get()
//	buf.WriteString("id=")
//	buf.AppendInt(42)
//	w.Write(buf.Bytes())
//	pool.Put(buf) // buf and buf.Bytes() are the pool's now
//
// Append-style APIs (strconv.AppendInt, base64's AppendEncode, encoders that
// take a dst []byte and return it extended) write into a Buffer without a
// copy through AvailableBuffer, as with bytes.Buffer:
//
//	buf.Write(strconv.AppendInt(buf.AvailableBuffer(), 42, 10))
//
// A []byte-in, []byte-out API takes Bytes() of one Buffer as its input and
// AvailableBuffer() of another as its output (see the example of
// AvailableBuffer).
//
// # How the pool sizes its Buffers
//
// A Buffer has a home array, made with the pool's default capacity when the
// Buffer is made. When a write needs more room, a pooled Buffer does not
// append: it asks its pool for a larger array, which the pool keeps in a few
// slots per size class (four classes per doubling: 1024, 1280, 1536, 1792,
// 2048, ...), and keeps its home array aside. Put gives the larger array
// back to the slots and the Buffer, with its home array, to the pool's
// per-processor slot and the sync.Pool behind it. So
// a request that writes 1 KiB gets a 1 KiB Buffer even right after one that
// wrote 1 MiB, and the 1 MiB arrays are reused by the requests that need
// them instead of being reallocated (or, as in a plain sync.Pool of
// bytes.Buffer, handed to requests that write 1 KiB).
//
// The pool samples the largest length written into each Buffer since its
// Get (so a Buffer emptied by Reset or WriteTo before Put counts what it
// held): one Put in 64 of a Buffer that did not grow, and one in 4 of one
// that did, weighted so that the histogram estimates the lengths of all
// Puts. The counts go to striped, padded cells, so goroutines on different
// processors do not write the same cache line. Every 2048 Puts of a cell
// (every 128 at first), one goroutine claims the calibration with a
// compare-and-swap; the others carry on. The calibration multiplies the past
// weights by 0.75 and adds the new counts, so the pool follows a change of
// workload within a few calibrations, and sets, without allocating:
//
//   - the default capacity of new Buffers: the class of the median length,
//     so that half the Buffers never grow and the other half grow from the
//     size-class caches below; or, when the lengths are so narrow that the
//     80th percentile is in the class just above the 45th percentile's
//     (not the median's: a median at a class boundary is in the upper
//     class half the time), the 80th percentile's class,
//     which holds 80% of them for at most a quarter more room (on lengths
//     around 4 KiB written in 4 KiB pieces, a tenth of the Buffers then
//     grow, copying their first piece, instead of half). It moves only when
//     three calibrations in a row ask for a move the same way, and by a
//     single class (a quarter more or less room) only when the percentile
//     is clearly in the other class (for the median: less than 40% of the
//     lengths fit in the current default, or more than 60% in the class
//     below), so that it settles on a workload that does not change. One exception: when the median of the weights is two
//     classes or more below the default and the lengths since the previous
//     calibration alone (at least 16 samples) are lower still, the lengths
//     have fallen, and the default moves to the median of those at once,
//     forgetting the weights of the lengths before (rising lengths only
//     make more Buffers grow, and wait). A Buffer whose home array is more
//     than a class above the default is dropped at Put, so the Buffers
//     follow the default down; one whose home is more than a class below
//     (made before the first calibration, or before the default rose) gets
//     a home of the default capacity at its next Put after growing, once
//     the pool has calibrated 16 times (so that the home does not take a
//     default the first samples' noise then moves), so they follow it up;
//   - the top of the lengths (Stats.KeepCap): the largest class at or above
//     which lengths still make 0.01% of the Puts (0.0025% for a class
//     already above it), within MaxCap. Growth does not go past it when
//     the length needed is within it. Arrays above it are kept too, within
//     MaxCap and the budget: on a heavy tail the estimate moves by several
//     doublings between calibrations, and an array dropped for being above
//     it would be allocated again by the next Buffer that grows that far.
//     An array no Buffer takes is let go by the aging described under
//     Bounds, a rare giant's included;
//   - where a Buffer that outgrows its array grows to, the growth plan: for
//     each class a Buffer may need, the class that minimizes, over the
//     lengths of that class and above, the capacity left unused at Put plus
//     0.35 times the bytes that the growths after this one copy (0.2 times
//     for arrays above 256 KiB, whose unused capacity weighs on the
//     Budget), when they follow the same plan (a dynamic program over the
//     classes, from the top down, each length counted at the middle of its
//     class). A Buffer that holds bytes when it grows (one written in
//     pieces) grows to at least a quarter more than it holds, so that
//     small pieces copy each byte a bounded number of times. An empty Buffer that outgrows its
//     home array in one Write grows to exactly the class it needs when,
//     of the sampled Buffers that needed that class so, most got nothing
//     more; otherwise by the plan. Where lengths that large are rare, growth
//     doubles below 256 KiB and adds a quarter from there, as append does,
//     within the top of the lengths.
//
// Before the first calibration, new Buffers get 512 bytes, growth doubles,
// and larger arrays are kept up to 64 KiB, the threshold fmt uses for its own
// buffers; after it, up to MaxCap.
//
// The growth plan replaced two percentiles of the lengths above the size
// needed (the 40th for a Buffer that grows empty, the 80th to bound the
// doubling of one that holds bytes). Those were tuned on the distributions
// suite of the benchmarks module; on eight shapes it does not have
// (BenchmarkDistUntuned: uniform lengths, two workloads through one pool,
// log-normal and exponential lengths, pieces of 512 bytes to 16 KiB), they
// left capacity/written above 1.5 on 21 of 32 rows, up to 1.56; with the
// plan, on 1 (1.52), and 1.18 and up on the others. The plan copies more
// where Buffers are written in pieces (lognormal-heavy: 1.15 bytes per byte
// written instead of 1.06), for up to 6% more time in steady state.
//
// Get and Put take no lock, do not sort, use no map, do not allocate (except
// when the pool is empty and Get makes a Buffer, and at the first Put, which
// makes the slots) and write no shared atomic
// counter. Each processor (P) has a slot for one Buffer in front of a
// sync.Pool: Get takes the Buffer in its P's slot, or one from the sync.Pool;
// Put is a few loads of rarely written words, a store into the slot (what
// was there moves to the sync.Pool) and, one time in 64, striped adds to the
// sampler. A slot costs a pin and two plain memory accesses, less than a
// sync.Pool operation, which makes the pool cheaper than a bare sync.Pool
// of *bytes.Buffer. Under the race detector, and TinyGo, there are no slots.
// A Buffer that outgrows its home array takes the larger array from a cache
// of its P (two arrays per size class, up to 64 KiB, like the runtime's
// mcache), and its Put gives that array back there: plain loads and stores
// while pinned, beside the copy that growing costs anyway. Only when the
// P's cache has none of the class, or no room for it, and for larger
// arrays, whose copy costs far more than a compare-and-swap, does the array
// go through the shared slots, with a compare-and-swap and an add to the
// count of bytes kept. The per-P caches do not share with each other: a
// goroutine that moves to another P leaves up to two arrays of each class
// in its old P's cache until that P grows a Buffer again or the next
// collection detaches the cache, and may make new ones meanwhile (measured
// with the collector off: up to 21 arrays after one move).
//
// A pool learns one distribution of lengths, so give each kind of output its
// own Pool: small records and large responses written through one Pool make
// a default capacity for the mix, which fits neither. Measured
// (BenchmarkDistShared in the benchmarks module: two goroutines, log-normal
// lengths of sigma 0.5, sharing one Pool or with a Pool each), records of
// median 500 B beside responses of median 40 KB had capacity/written 1.28
// in the shared Pool and 1.24 in their own; records of median 300 B beside
// responses of 8 KB, 1.37 against 1.24. (Before the growth plan, records
// that outgrew their home grew to sizes set by the responses, and had 2.8
// to 3.6 in the shared Pool.)
//
// # Bounds
//
// Two bounds hold from the first call, before any calibration:
//
//   - MaxCap (default DefaultMaxCap, 4 MiB): no array of larger capacity is
//     ever kept.
//   - Budget (default DefaultBudget, 32 MiB): at each Put, the pool keeps the
//     Buffer, or the larger array, only if the bytes it retains stay within
//     the budget: the per-P caches within the part set aside for them (see
//     below), the rest within what remains.
//
// NewPool sets them and returns an error wrapping ErrConfig for a negative
// value, a MaxCap above MaxMaxCap or a Budget below MaxCap.
//
// The default Budget can bind with many cores and lengths that reach toward
// MaxCap: Put then drops arrays that a later growth allocates again. On a
// 16-core machine, with log-normal and Pareto lengths of up to 1 MiB from 4
// to 16 goroutines, a Budget of 128 MiB allocated 42% to 45% fewer bytes than
// the default (two runs), in the same time (BenchmarkDistBudget, "Many
// cores" in benchmarks/README.md). Stats.Drops that keeps rising under a
// steady load is the sign.
//
// The bytes retained are counted in three parts, and Stats.RetainedBytes is
// their sum:
//
//   - The larger arrays in the per-P caches. A quarter of what Budget leaves
//     above MaxCap is set aside for them, shared evenly by the Ps (so with a
//     Budget equal to MaxCap there are no per-P caches); each P's cache
//     counts its own bytes and never holds more than its share, so the hot
//     paths count nothing in shared memory. They follow sync.Pool's victim
//     rule too: after every collection each P's cache is detached and held
//     only by weak pointer, and the P's next use takes it back; a cache no
//     one takes back is freed by the next collection. And a P drops, at
//     its first use after a collection, the arrays of every class it took
//     none from during the interval that collection ended: an array put
//     back and not taken again is let go within two collections.
//   - The larger arrays in the shared slots are counted from above: bytes are
//     reserved before an array is stored and released when it is taken or
//     dropped. The slots hold at most 8 arrays per class. They follow
//     sync.Pool's victim rule: after every collection the arrays in the
//     slots move to a victim table that holds them only by weak pointer,
//     from which growth still takes them, and what the victim table held
//     before is dropped.
//     So an array nobody takes is freed by the second collection after it
//     was put back, as in a sync.Pool (the bytes of a victim the collector
//     freed stay counted until the next collection: the count errs high).
//     The state that holds them with the sampler and the calibration (4.7
//     KiB and half a KiB per P) follows the same rule: after every
//     collection it is held only by weak pointer, and the pool's next
//     growth or sample takes it back, so that a pool in use keeps its
//     calibration, and one whose use ended before a collection holds no
//     state after the next one, as a sync.Pool holds nothing two
//     collections after its last use (before, the state stayed until the
//     third: 6.4 KiB per pool at 2 Ps, TestManyIdleGrownPools). The bytes
//     its larger arrays hold stay counted meanwhile. When a collection
//     interval passes in which the pool handed out no Buffer from its per-P
//     slots (the pool is idle), the arrays and the state are dropped at
//     once: an idle pool keeps only its counters and its default capacity,
//     and its next use starts the sampler anew. Where there are no per-P
//     slots (under the race detector, with the reuse_nolinkname tag, under
//     TinyGo), the pool is idle when no Get ran during the interval.
//   - The home arrays of the Buffers live in a sync.Pool, which the garbage
//     collector empties over two cycles without telling anyone, and in the
//     per-P Buffer slots (one Buffer each), which the sweep after every
//     collection empties, so that a Buffer in a slot is freed by the second
//     collection after its Put, as in a sync.Pool; the array of slots itself
//     is then held only by weak pointer until the next Put takes it back.
//     (reuse.Pool's slots give a
//     value its P took from a second chance, through one more collection,
//     see "# Retention" in package reuse; a Buffer is cheap to make again,
//     and with it, at 16 Ps, the pool held up to 105 KiB two collections
//     after its last use, against at most 26 KiB without it.) The pool
//     counts the home capacity of every Buffer it made from its making until
//     a cleanup (runtime.AddCleanup) reports that the collector freed it.
//     That count is an estimate that errs high: it includes Buffers in use,
//     and Buffers the collector has freed but whose cleanup has not run.
//     Because it errs high, the budget check it feeds is conservative.
//
// Not counted: the Buffer structs themselves (about 100 bytes each, with
// their cleanup record) and sync.Pool's own per-processor bookkeeping. A Put
// racing with other Puts may overshoot the budget by the Buffers racing.
//
// # Ownership
//
// Get gives the caller a Buffer; Put takes it back. After Put the caller must
// not use the Buffer, nor any slice Bytes returned: the pool hands the same
// memory to the next Get, possibly on another goroutine (pitfall P2 in
// docs/PITFALLS.md). Copy what must outlive the Put (String returns a copy), or
// write it out with WriteTo before Put.
//
// Bytes aliases the buffer and is valid only until the next modification:
// a Write that grows the buffer moves it to another array.
//
// Get always returns an empty Buffer; there is no state left by the previous
// user to Reset (pitfall P3), although the bytes beyond Len in the array are
// not cleared. Do not pool Buffers that held secrets.
//
// # Concurrency
//
// A Pool is safe for use by multiple goroutines; a Buffer is not, like
// bytes.Buffer, and belongs to one goroutine at a time. Neither may be copied
// after first use. The Stats counters are read one at a time while other
// goroutines update them.
//
// # When not to pool
//
// Measured on this project's reference machine (the benchmarks module has
// the code, and its README the figures): a Get, one Write and a Put cost
// about what they cost with a sync.Pool of *bytes.Buffer, and a fraction of
// a new bytes.Buffer each time. Under the mixed workload W11 (95% of
// requests write about 1 KiB, 5% about 1 MiB, 32 in flight) a request costs
// about half what it does with a sync.Pool of *bytes.Buffer, holds 1.13 times
// the capacity it writes (40.2 times with that pool), and leaves 2.3 MiB in
// the heap after one GC (64 MiB).
//
// So a pool pays off whenever the buffer would otherwise be allocated on the
// heap. It does not when the buffer can live on the stack: a small array of
// known size (var a [64]byte; append(a[:0], ...)) costs nothing to free, and
// the compiler can only keep it there if it does not escape, which a pooled
// Buffer always does. Do not pool a buffer that is kept rather than returned
// (it becomes a message stored in a map, or goes to a goroutine that outlives
// the request): copy out of the pooled one, or allocate. A program that
// writes buffers rarely gains nothing from keeping them, and pays for the
// memory kept.
package bytebuf
