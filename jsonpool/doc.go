// Package jsonpool encodes and decodes JSON with encoding/json through pooled
// encoders and buffers, with an API that keeps pooled memory, options and
// stale state from reaching the caller.
//
// Append marshals a value into the caller's slice, byte for byte what
// json.Marshal returns, without allocating when the slice has room; Encode
// writes a value to an io.Writer, exactly what json.NewEncoder(w).Encode
// writes. An Encoder value carries options (indentation, HTML escaping) that
// apply to one call only. Decode reads a JSON value from an io.Reader through a
// pooled buffer, refusing input longer than a limit with an error wrapping
// ErrTooLarge. Values is a pool of values to decode into, each handed out
// zeroed, so that a field missing from one document never shows the previous
// document's value (pitfall P3).
//
// # With bytebuf
//
// A bytebuf.Buffer is an io.Writer: Encode(buf, &v) writes the encoding and
// its newline into it in one Write, so the Buffer grows at most once, taking
// its larger array from its pool, and a warm path allocates nothing (pass a
// pointer: a slice or struct converted to an interface is boxed):
//
//	buf := pool.Get() // pool is a bytebuf.Pool
//	err := jsonpool.Encode(buf, &v)
//	w.Write(buf.Bytes())
//	pool.Put(buf)
//
// encoding/json always marshals into a buffer of its own first and then
// copies it out; no encoding/json API takes the destination, so that copy is
// the floor for every caller. It keeps that buffer in a sync.Pool of its own,
// which collections empty (pitfall P6): what a heap profile shows growing
// under encoding/json's encodeState is that buffer made again after a
// collection, not something a pool of yours can take over.
//
// # Ownership
//
// Nothing pooled is ever returned: Append's result is the caller's dst
// extended, Encode writes to the caller's writer, Decode fills the caller's
// value. The pooled json.Encoder and read buffer are taken and given back
// within the call, and drop their reference to the caller's slice, writer or
// reader before they go back, so a pooled object never keeps the caller's
// memory alive.
//
// A value from Values.Get, Values.Decode or Values.Unmarshal belongs to the
// caller until it gives it to Values.Put, which zeroes it. After Put the
// caller must not touch it, nor strings or slices it read from it without
// copying: they may belong to the next document.
//
// # Concurrency
//
// All functions, Encoder values and Values are safe for use by multiple
// goroutines. A Values must not be copied after first use.
//
// # When not to pool
//
// Measured on Go 1.26 with BenchmarkPaired (medians of interleaved batches,
// the W7/W8 document {"id":1,"name":"Jack","items":[...]}):
//
//   - Append into a slice with room: 0 allocations against json.Marshal's 1
//     (64 B), about 1.07 times as fast. json.Marshal already pools its
//     internal buffer and allocates only its result, so that allocation and
//     copy are all there is to gain, and the pool round trip costs most of it
//     back. Worth it in hot paths for the garbage it does not make; not for
//     speed.
//   - Encode without indentation: Go 1.26 keeps json.NewEncoder(w) on the
//     stack, so json.NewEncoder(w).Encode(v) no longer allocates (the 5
//     allocations of workload W7 are gone), and Encode uses a fresh encoder
//     too: same output, same 0 allocations, within a few percent.
//   - Encode with indentation: json.Encoder allocates its indentation buffer
//     on every call (5 allocations, 248 B); the pooled one keeps it: 0
//     allocations, about 1.3 to 1.4 times as fast.
//   - Decode against json.NewDecoder(r).Decode: 13 allocations (416 B)
//     against 16 (1136 B), about 1.2 times as fast; against json.Unmarshal on
//     bytes already in memory there is nothing to gain.
//   - Values saves only the allocation of the top-level T, and zeroing it
//     costs about what allocating it does: for a small struct like this one
//     Values.Unmarshal is slightly slower than json.Unmarshal into a new T.
//     Use it for large T, or for the P3 guarantee.
//
// Encoders that wrote more than 64 KiB, and read buffers larger than 64 KiB,
// are not kept, so one large document does not leave a large buffer in the
// pool for every later small one (pitfall P7).
package jsonpool
