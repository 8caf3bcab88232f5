// Package khttp is httpcompress over github.com/klauspost/compress: the
// same Config and behaviour (see httpcompress's package documentation),
// with zstd (RFC 8878) for the clients that accept it and gzip from
// klauspost's flate for the others. Request bodies in both codings are
// decompressed under Config.RequestLimit, within a stated bound on memory
// (see Memory); a body in another coding gets 415 with "Accept-Encoding:
// zstd, gzip", unless Config.PassRequestEncodings (see Config.RequestLimit).
//
//	http.Handle("/", khttp.Handler(mux)) // zstd or gzip, bodies from 1 KiB
//
//	mw, err := khttp.New(httpcompress.Config{RequestLimit: 10 << 20})
//	if err != nil {
//		return err
//	}
//	http.Handle("/", mw(mux))
//
// When a client accepts both equally, as browsers and curl --compressed
// do, zstd is chosen (see Compressed sizes); list Gzip() first in
// Config.Encodings to prefer gzip.
//
// It lives in a nested module so that importing httpcompress never pulls
// klauspost/compress in.
//
// # Ownership
//
// As in httpcompress: pooled encoders are reachable only from the
// ResponseWriter of the response using them, go back exactly once when the
// handler returns, and write only through a sink cleared when they go back.
// A request body's decoder is new for each body and dropped at its end.
// The encoders are pooled with the codec package, one codec.Codec per
// coding for the whole program, shared by every middleware New returns.
//
// # Concurrency
//
// Handler, New and the middleware are safe for use by multiple goroutines.
//
// # Memory
//
// A pooled zstd encoder has a 1 MiB window and holds about 2 MB at the
// default speed (1.84 MB measured after a 64 KiB response); a pooled
// klauspost flate writer at its default level about 1.07 MB. The pools hold
// at most as many as were in use at once, until garbage collections empty
// them, as reuse.Pool does.
//
// Request bodies get a new decoder each (see Gzip and Zstd). Decompressing
// one costs at most Config.RequestLimit and 2.5 MiB of allocations,
// whatever the body holds: a gzip decoder about 40 KiB (its 32 KiB window
// and tables); a zstd decoder twice its window while the window is under
// 2 MiB, the window and 1 MiB above, and about 150 KiB, where the window is
// the limit and one 128 KiB block rounded up, at most 8 MiB. That is
// 0.4 MiB at a limit of 1 KiB, 0.55 MiB at 64 KiB, 2.6 MiB at 1 MiB, and
// at most 9.3 MiB at any limit.
//
// # Compressed sizes
//
// At the same Config.Level zstd sends fewer bytes than this package's gzip
// on most bodies, at about the same compression speed. At the default
// level, on 200 KiB each of JSON, HTML, English text and log lines, zstd's
// output was 13% smaller to 1.1% larger than this package's gzip (larger
// only on HTML), and 2.6% smaller to 6.6% larger than compress/gzip's at
// its default level 6, which compressed several times slower; this
// package's gzip was 0 to 15% larger than compress/gzip's. The figures,
// their sources and how to rerun them are in
// benchmarks/results/2026-11-26-httpcompress.md. Use httpcompress, or a
// higher Level, for smaller gzip.
package khttp
