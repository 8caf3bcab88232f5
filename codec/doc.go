// Package codec is the engine behind the pooled compression packages
// (gzpool, zlibpool, flatepool, httpcompress, and kgzip and
// httpcompress/khttp in their nested modules), for pooling
// any other compressed format the same way: describe the format in a
// Format, make a Codec with New once, and wrap its methods.
//
//	var pools = codec.Must(codec.New(codec.Format{
//		Name:     "mypool",
//		MinLevel: 1, MaxLevel: 9,
//		NewCompressor: func(w io.Writer, level int) (codec.Compressor, error) {
//			return mylib.NewWriter(w, level)
//		},
//		NewDecompressor: func() codec.Decompressor { return new(mylib.Reader) },
//		Park:            emptyStream, // a valid stream with no content
//	}))
//
// A Codec keeps one pool of compressors per level and one of decompressors,
// and gives them out in four ways: Compress and Decompress, one-shot calls
// that append to the caller's slice (Decompress stops at a limit and
// allocates at most 1.25 times it); and OpenWriter and OpenReader, which
// point a Writer or Reader handle at a pooled object for streaming
// (OpenWriterWith sets a stream up first, as a gzip header's comment). The
// errors wrap the shared sentinels (ErrTooLarge, ErrCorrupt, ErrClosed,
// ErrLevel), so errors.Is matches across every format.
//
// The per-format packages of this module are written by go generate from one
// template (see gzpool's gen.go); a package outside the module writes its
// own wrappers, as the zstd example in kgzip's module does.
//
// # Ownership
//
// Compress and Decompress return nothing that belongs to a pool. A Writer or
// Reader reaches its pooled object only until Close (or Discard), after
// which every method returns ErrClosed; a handle cannot reach an object that
// another goroutine has since taken. A pooled object keeps no reference to a
// caller's writer, reader or slice once given back: compressors write through
// a sink that is cleared, and decompressors are Reset onto Format.Park.
//
// # Concurrency
//
// A Codec is safe for use by multiple goroutines; a Writer or Reader is used
// by one goroutine at a time.
//
// # Reuse must be invisible
//
// A decompressor given back is Reset and used for another caller's stream.
// If its Reset keeps any state (tables, history) that a new decompressor
// does not have, a crafted stream from one caller is decoded with state from
// another's: github.com/klauspost/compress/flate v1.18.0 keeps its Huffman
// tables, and kgzip sets Format.SingleUse for it. Test a new format the way
// this module tests its own: decode an unrelated stream with the pooled
// decompressor, then fuzzed input, and compare with a new decompressor.
//
// # When not to pool
//
// Pooling pays where setting up a compressor dominates: small and medium
// payloads (a gzip writer is about 800 KB to set up). For rare, large
// streams the pool only holds memory. See gzpool's benchmarks.
package codec
