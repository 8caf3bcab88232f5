// Package gzpool compresses and decompresses gzip (RFC 1952) with pooled
// compress/gzip writers and readers, in a way that cannot leak pooled memory
// to the caller, keep the caller's writer alive, or be blown up by a
// decompression bomb.
//
// A new gzip.Writer costs about 800 KB and 15 allocations before it compresses
// a byte, so compressing a small payload with gzip.NewWriter spends nearly all
// its time setting up. The pooled forms keep one pool of writers per level and
// one of readers:
//
//	dst, err := gzpool.Compress(dst[:0], body, gzip.BestSpeed)  // appends, 0 allocs with room
//	plain, err := gzpool.Decompress(nil, dst, 10<<20)           // errors.Is(err, gzpool.ErrTooLarge) past 10 MiB
//
//	w, err := gzpool.NewWriter(conn, gzip.DefaultCompression)   // streaming
//	...
//	err = w.Close()                                             // flushes, gives the writer back
//
// Sibling packages zlibpool and flatepool offer the same functions for zlib
// and raw deflate, and the nested module github.com/reuse-go/reuse/kgzip the
// same for github.com/klauspost/compress/gzip.
//
// # Ownership
//
// Compress and Decompress append to the caller's dst and return it; nothing
// they return belongs to the pool, and the pool keeps no reference to dst or
// src once they return (pitfall P2 cannot happen through them).
//
// NewWriter and NewReader return handles. The pooled compressor belongs to
// the handle until Close, which gives it back; from then on the handle points
// to nothing, and every method returns ErrClosed. A handle kept by mistake
// cannot reach a compressor that the pool has since given to someone else.
// The pooled compressor writes only to an internal sink that points to the
// caller's writer; Close clears it, so a pooled writer never keeps the
// caller's writer (a connection, a file) reachable. A pooled reader is reset
// onto an empty internal stream on Close for the same reason.
//
// A Writer or Reader that is never closed is not reused; the garbage
// collector frees it.
//
// # Concurrency
//
// Compress, Decompress, NewWriter and NewReader are safe for use by multiple
// goroutines. A Writer or Reader is used by one goroutine at a time, like the
// compress/gzip types.
//
// # Limits
//
// Decompress always takes a limit and stops as soon as the output would pass
// it: it decompresses at most limit+1 bytes and allocates at most 1.25 times
// the limit plus 64 KiB, whatever the input claims (TestDecompressMemory in
// package codec; a valid stream of several members is the one exception,
// see Decompress). A 1.4 MB stream of zeros that expands to 1.06 GiB, with a
// limit of 10 MiB, fails with ErrTooLarge having allocated 10.1 MiB
// (TestBomb). The streaming Reader has no limit of its own; wrap it in
// io.LimitReader.
//
// The pools hold what sync.Pool holds: the compressors given back since the
// previous two garbage collections, so at most as many as were in use at
// once, per level. Each pooled compress/gzip writer holds 730 KB (levels -2
// and 0), 816 KB (levels 2 to 9) or 1.2 MB (level 1, BestSpeed); each reader
// about 41 KB. Level -1 (DefaultCompression) shares the pool of level 6. A
// server compressing on 100 connections at once at one level may therefore
// hold about 80 MB of writers until the pool is emptied by two collections;
// using several levels multiplies that.
//
// # When not to pool
//
// Measured with kgzip's BenchmarkCompress and BenchmarkDecompress, which run
// compress/gzip, gzpool, klauspost/compress and kgzip side by side
// (benchmarks/README.md has the figures), gzpool against a gzip.New* per
// call is about 20x cheaper to compress 200 bytes and 6x to decompress them,
// and 1.05x to 1.1x at 64 KiB; it makes no allocation per call to compress.
//
// Pooling pays when the setup dominates, as it does for small payloads. At
// 64 KiB the compression itself dominates and the pooled and per-call forms
// cost about the same; the pool then saves only the 800 KB of garbage per
// call. Do not pool when you compress rarely (a pooled writer holds up to
// 1.2 MB of heap until two collections pass), when calls spread over many
// levels, or when compress/gzip's cost does not show in your profile:
// compress/gzip directly is simpler.
package gzpool
