// Package kgzip is gzpool over github.com/klauspost/compress/gzip: the same
// functions, handles, errors and limits, with klauspost's faster deflate
// behind them. It lives in a nested module so that the root module of reuse
// keeps no third-party dependency; it requires klauspost/compress v1.18.0
// (whose go directive, 1.22, fits this module's go 1.24).
//
//	dst, err := kgzip.Compress(dst[:0], body, gzip.BestSpeed)  // appends, 0 allocs with room
//	plain, err := kgzip.Decompress(nil, dst, 10<<20)           // errors.Is(err, kgzip.ErrTooLarge) past 10 MiB
//
// The output is standard gzip, readable by compress/gzip and the gzip
// command, but not byte-for-byte what compress/gzip writes. The error values
// are the same as gzpool's, so errors.Is(err, gzpool.ErrTooLarge) also
// matches an error from this package. Levels are -2 (HuffmanOnly) to 9;
// klauspost's StatelessCompression (-3) is not offered, as it keeps no state
// worth pooling. Level -1 (DefaultCompression) shares the pool of level 5,
// which is what klauspost uses for it.
//
// # Readers are not reused
//
// The decoder of github.com/klauspost/compress/flate v1.18.0 (still so in
// v1.20.3) keeps its Huffman tables across Reset, so a reused decoder given a
// dynamic block with no distance codes decodes its length codes with the
// distance table of the stream it read before, and accepts corrupt input that
// a new decoder, compress/gzip and gzpool reject. Because that turns one caller's stream
// into state that shapes another caller's output, kgzip pools only the
// buffers around a decoder and takes a new klauspost decoder, about 38 KB in
// 7 allocations, for every Decompress and NewReader. Code that uses
// klauspost's gzip.Reader, flate reader or zlib reader directly and calls
// Reset on input it does not trust has the same problem.
//
// # Ownership
//
// As in gzpool: Compress and Decompress append to the caller's dst and return
// nothing that belongs to the pool; NewWriter and NewReader return handles
// that reach the pooled object only until Close, after which every method
// returns ErrClosed; a pooled object keeps no reference to the caller's
// writer or reader.
//
// # Concurrency
//
// Compress, Decompress, NewWriter and NewReader are safe for use by multiple
// goroutines; a Writer or Reader is used by one goroutine at a time.
//
// # Limits
//
// Decompress stops as soon as the output would pass its limit. The pools hold
// the compressors given back since the previous two garbage collections, per
// level; a klauspost writer at the default level costs about 1.08 MB. Readers
// are not pooled (see above).
//
// # When not to pool
//
// As for gzpool: the pool pays when setup dominates, at small payloads. At
// 64 KiB klauspost compresses several times faster than compress/gzip, and
// the pool saves the 1 MB of garbage per call. Do not pool rare compression.
// See BenchmarkCompress and BenchmarkDecompress for the figures on this
// machine.
package kgzip
