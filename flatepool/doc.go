// Package flatepool compresses and decompresses raw deflate (RFC 1951) with pooled
// compress/flate writers and readers. It has the same shape as gzpool, and
// the same guarantees:
//
//	dst, err := flatepool.Compress(dst[:0], body, flate.BestSpeed)  // appends, 0 allocs with room
//	plain, err := flatepool.Decompress(nil, dst, 10<<20)         // errors.Is(err, flatepool.ErrTooLarge) past 10 MiB
//
// See gzpool's documentation for the design; only the differences are noted
// here.
//
// # Ownership
//
// Compress and Decompress append to the caller's dst; nothing they return
// belongs to the pool. NewWriter and NewReader return handles that point to
// the pooled compressor until Close and to nothing afterwards: a handle used
// after Close returns ErrClosed and cannot reach a compressor the pool has
// given to someone else. Close leaves the pooled object referencing neither
// the caller's writer nor its reader.
//
// # Concurrency
//
// Compress, Decompress, NewWriter and NewReader are safe for use by multiple
// goroutines; a Writer or Reader is used by one goroutine at a time.
//
// # Limits
//
// Decompress stops as soon as the output would pass its limit, having
// decompressed at most limit+1 bytes and allocated at most about limit bytes.
// The pools hold the compressors given back since the previous two garbage
// collections, per level: about 730 KB to 1.2 MB each (see gzpool), and 41 KB
// per reader. Level -1 shares the pool of level 6.
//
// Raw deflate has no header and no checksum: NewReader never fails, and
// damaged input that still decodes returns wrong bytes without an error. Use
// gzpool or zlibpool when the data crosses an untrusted boundary.
//
// # When not to pool
//
// As for gzpool: pooling pays for small payloads, where setting up a writer
// (about 800 KB) costs far more than compressing; at 64 KiB and above the
// compression dominates and the pool only saves garbage. Do not pool rare or
// one-off compression.
package flatepool
