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
// Measured on Go 1.26 (see BenchmarkMarshal, BenchmarkEncode and
// BenchmarkDecode; figures in the README):
//
//   - Marshalling into a slice that has room is where this package pays:
//     json.Marshal already pools its internal buffer and allocates only the
//     result, so Append's gain is that one allocation and copy.
//   - Go 1.26 keeps json.NewEncoder(w) on the stack: a plain
//     json.NewEncoder(w).Encode(v) no longer allocates, and Encode gains
//     nothing there (it costs a pool round trip). It pays with indentation,
//     where json.Encoder allocates its indentation buffer on every call.
//   - Decoding is dominated by what json.Unmarshal allocates for the value
//     itself (strings, slices, maps). Decode only replaces json.Decoder's
//     read buffer, and Values only the allocation of the top-level T, which
//     matters for large structs, not for small ones.
//
// Encoders that wrote more than 64 KiB, and read buffers larger than 64 KiB,
// are not kept, so one large document does not leave a large buffer in the
// pool for every later small one (pitfall P7).
package jsonpool
