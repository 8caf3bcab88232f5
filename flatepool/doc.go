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
// As in gzpool: Compress and Decompress return nothing that belongs to the
// pool, a Writer or Reader reaches its pooled object only until Close, and
// a pooled object keeps no reference to the caller's writer or reader.
//
// # Concurrency
//
// As in gzpool: the functions are safe for concurrent use; a Writer or
// Reader is used by one goroutine at a time.
//
// # Limits
//
// Decompress stops as soon as the output would pass its limit, and
// allocates at most 1.25 times the limit plus 64 KiB: output past an eighth
// of the limit is measured first, then decompressed again into a buffer of
// its size. The pools hold the compressors given back since the previous two
// garbage collections, per level: about 730 KB to 1.2 MB each (see gzpool),
// and 41 KB per reader. Level -1 shares the pool of level 6.
//
// Raw deflate has no header and no checksum: NewReader never fails, and
// damaged input that still decodes returns wrong bytes without an error. Use
// gzpool or zlibpool when the data crosses an untrusted boundary.
//
// # When not to pool
//
// As for gzpool: pooling pays for small payloads; do not pool rare or
// one-off compression.
package flatepool
