// Package khttp is httpcompress over github.com/klauspost/compress: the
// same Config and behaviour (see httpcompress's package documentation),
// with gzip from klauspost's flate, faster than compress/flate at the same
// level, and zstd (RFC 8878) for the clients that accept it.
//
//	http.Handle("/", khttp.Handler(mux)) // zstd or gzip, 1 KiB minimum
//
// When a client accepts both equally, as browsers and curl --compressed
// do, zstd is chosen: it compresses faster and smaller than gzip. List
// Gzip() first in Config.Encodings to prefer gzip.
//
// It lives in a nested module so that importing httpcompress never pulls
// klauspost/compress in.
//
// # Ownership
//
// As in httpcompress: pooled encoders are reachable only from the
// ResponseWriter of the response using them, go back exactly once when the
// handler returns, and write only through a sink cleared when they go back.
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
package khttp
