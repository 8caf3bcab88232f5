// Package bytebuf provides Buffer, a byte buffer for building output, and
// Pool, a pool of Buffers that sizes them to the lengths written into them
// and keeps its memory within a bound from its first call.
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
// Each processor (P) has a default capacity, a power of two, 512 bytes at
// first. Get hands out an empty Buffer of exactly the default capacity of
// the caller's P: one of the six the P keeps at hand, one kept by the pool,
// or a new one.
//
// A Buffer that needs more room moves to the smallest power of two that holds
// what it needs plus what it already holds, as libp2p's buffer grows, but past
// twice its capacity only up to the largest size a growth of the pool reached
// before: a Buffer written in small pieces copies each byte a bounded number
// of times, one written empty in one piece copies nothing, and one a length
// barely overflows doubles unless the pool grew further. The larger array
// comes from the last Buffer that grew on the same P, which Put keeps aside
// for that, or else from the pool's Buffers of that capacity; either takes the
// old array in exchange, and Put keeps each Buffer with those of its capacity:
// so arrays of every size are reused by the requests that need them, a request
// that writes 1 KiB gets 1 KiB even right after one that wrote 1 MiB, and a
// workload that repeats itself allocates nothing.
//
// One Put in four counts the largest length its Buffer held since its Get, on
// the caller's P. Every 240 counted lengths (32 for a P's first window) the
// P's default moves, up when 3/16 of them exceeded it and down when 15/16
// fitted half of it, and the Buffers the P kept at hand go to the collector. A
// P whose first window has not ended uses the default the last window of any P
// moved to. The rule reads nothing but the lengths, in order: at GOMAXPROCS 1,
// the same lengths through a fresh pool give the same capacity at every Get,
// whenever the collector runs (P 0's sizing state outlives the per-P array it
// frees); with more processors, each one follows the lengths put back on it.
//
// # Bounds
//
//   - MaxCap (default DefaultMaxCap, 4 MiB): no Buffer of larger capacity
//     is kept; growth beyond it allocates as append does.
//   - Budget (default DefaultBudget, 32 MiB for every four processors):
//     while the arrays of the Buffers the pool made that are still alive,
//     in use or kept, exceed it, Put drops Buffers (Stats.RetainedBytes).
//
// The pool keeps six Buffers and one that grew (below 16 KiB) per P, and the
// others by capacity, where every P reaches them. The collector empties all
// over two cycles, as it does a sync.Pool, except the arrays of 16 KiB and
// more kept by capacity: the pool holds those only weakly, so they never
// count in the heap goal, and the next collection frees them unless a Get
// took them back first.
//
// # Ownership
//
// Get gives the caller a Buffer; Put takes it back. After Put the caller must
// not use the Buffer, nor any slice Bytes returned: the pool hands the same
// memory to the next Get, possibly on another goroutine (pitfall P2 in
// docs/PITFALLS.md). Copy what must outlive the Put (String returns a copy), or
// write it out with WriteTo before Put. Bytes is valid only until the next
// change: a Write that grows the buffer moves it to another array.
//
// Get returns an empty Buffer (pitfall P3) unless memory was written after its
// Put, which the debug build reports (reuse.Misuse says where): a Write through
// a *Buffer kept after Put reaches the next Get's Buffer, Len included. Get
// does not clear the bytes beyond Len either: do not pool secrets.
//
// # Concurrency
//
// A Pool is safe for use by multiple goroutines; a Buffer, like bytes.Buffer,
// is not. Neither may be copied after first use.
//
// # When not to pool
//
// A Get, one Write and a Put cost about what they do with a sync.Pool of
// *bytes.Buffer (benchmarks/README.md): pool where the buffer would otherwise
// be allocated on the heap, not where it can live on the stack (var a
// [64]byte; append(a[:0], ...)), nor for a buffer that is kept (in a map, or
// by a goroutine that outlives the request): copy out of it, or allocate.
package bytebuf
