// Package zlibpool compresses and decompresses zlib (RFC 1950) with pooled
// compress/zlib writers and readers. It has the same shape as gzpool, and
// the same guarantees:
//
//	dst, err := zlibpool.Compress(dst[:0], body, zlib.BestSpeed)  // appends, 0 allocs with room
//	plain, err := zlibpool.Decompress(nil, dst, 10<<20)         // errors.Is(err, zlibpool.ErrTooLarge) past 10 MiB
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
// Streams that need a preset dictionary are not supported. compress/zlib's
// reader allocates its 4-byte Adler-32 state on every reset, so Decompress
// makes one small allocation even when dst has room.
//
// # When not to pool
//
// As for gzpool: pooling pays for small payloads; do not pool rare or
// one-off compression.
package zlibpool
