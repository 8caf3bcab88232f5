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
// level; a klauspost writer at the default level costs about 1.08 MB, a
// reader about 39 KB.
//
// # When not to pool
//
// As for gzpool: the pool pays when setup dominates, at small payloads. At
// 64 KiB klauspost compresses several times faster than compress/gzip, and
// the pool saves the 1 MB of garbage per call. Do not pool rare compression.
// See BenchmarkCompress and BenchmarkDecompress for the figures on this
// machine.
package kgzip
