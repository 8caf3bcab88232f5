// Package httpcompress compresses HTTP responses with gzip for the clients
// that accept it, and optionally decompresses request bodies, with pooled
// compressors that are never shared between two responses.
//
//	http.Handle("/", httpcompress.Handler(mux)) // gzip, bodies from 1 KiB
//
//	mw, err := httpcompress.New(httpcompress.Config{
//		Level:        gzip.BestSpeed,
//		RequestLimit: 10 << 20, // gzip request bodies, 413 past 10 MiB
//	})
//	if err != nil {
//		return err
//	}
//	http.Handle("/", mw(mux))
//
// The handler picks a coding from Accept-Encoding (RFC 9110 q-values;
// "identity;q=0" lifts the minimum size) and holds the start of the body
// until it can decide: Config.MinSize bytes, 512 to sniff a missing
// Content-Type, or the handler's Content-Length. It then compresses,
// setting Content-Encoding and Vary and rewriting the ETag as Config.ETag
// says, or passes the body through as it is: a response without a body or
// a partial one, a body the handler encoded itself, a type
// Config.ContentTypes refuses, a body under MinSize, and every response to
// HEAD. A Flush decides at once, so streams start without waiting.
//
// With Config.RequestLimit set, a request body in gzip, or in a coding of
// the Encodings that has an OpenReader, reaches the handler decoded, at most
// the limit of it. A body in any other coding, or in several, gets 415
// Unsupported Media Type with the codings decoded in Accept-Encoding, as
// RFC 7694 section 3 says, and the handler does not run: it could only
// misread the body (a JSON decoder's "invalid character", a 400).
// Config.PassRequestEncodings passes such a body through as it came
// instead, for a proxy or a handler that decodes it. Without RequestLimit,
// request bodies reach the handler as they came, in every coding.
//
// The package uses the standard library only. The nested module
// github.com/reuse-go/reuse/httpcompress/khttp offers the same Config over
// klauspost/compress, with zstd. Each Encoding pools its compressors with
// the codec package; a new coding is a codec.Format and an Open function
// (see the Encoding example). How the package compares with
// klauspost/compress/gzhttp, point by point, is in the repository's
// docs/httpcompress-vs-gzhttp.md.
//
// # Differences from net/http
//
// A handler behind the middleware sees net/http's behaviour, and its
// client gets the same status, header and body, but for these differences
// (FuzzNetHTTP checks each against net/http on a real server):
//
//   - Every response has Accept-Encoding in Vary.
//   - A compressed response has Content-Encoding, no Accept-Ranges unless
//     Config.KeepAcceptRanges, its ETag rewritten by Config.ETag, the
//     sniffed Content-Type in its header map, and no Content-Length: a
//     body longer than the handler's Content-Length fails its Writes with
//     http.ErrContentLength, as with net/http, only while the start of the
//     body is held; once compressing, it is sent whole, and so is a body
//     shorter than declared. A 304 that revalidates a compressed response
//     carries its ETag.
//   - If-Range with a date: a request that accepts a coding reaches the
//     handler without Range and If-Range (see ETagMode).
//   - As with net/http, header changes made through Header after the first
//     Write or final WriteHeader do not reach the response, trailers
//     aside; but a header map the handler kept from before is the one sent
//     while the middleware holds the start of the body.
//   - A response net/http would send chunked because the handler copied
//     into it with io.Copy (ReadFrom, as http.ServeContent does) may go
//     with a Content-Length, as the middleware holds the first bytes; it
//     then carries no trailers named with http.TrailerPrefix, as no
//     response with a Content-Length does.
//   - Hijack drops what the middleware holds, the status and header
//     included when nothing was sent yet.
//   - A handler that panics leaves a compressed response truncated, never
//     complete-looking, even under a middleware that recovers.
//
// # Ownership
//
// A compressor comes from a pool when a response starts compressing and goes
// back exactly once, when the handler returns (or panics, or hijacks the
// connection); the prefix buffer likewise. Both are reachable only from the
// response's state, which is pooled too, and the state only from the
// ResponseWriter the handler was given, made for one request and cut from
// the state when the handler returns. After that its methods return an
// error and reach nothing, so a handler that leaks it to a goroutine cannot
// write into another response. The header values the package sets (Vary,
// Content-Encoding) are backed by arrays in the state that are written
// once, when the state is made; a state whose arrays a handler overwrote in
// place is dropped instead of reused. A pooled compressor writes only
// through a sink of codec's that is cleared when it is given back, so it
// keeps no ResponseWriter alive.
//
// A request body that Config.RequestLimit decompresses is read through a
// pooled decompressor, given back at the end of the body or when the
// handler returns; the handler reads at most the limit.
//
// # Concurrency
//
// Handler, New and the middleware it returns are safe for use by multiple
// goroutines. The ResponseWriter given to the wrapped handler is used by one
// goroutine at a time, as net/http's is.
//
// # Costs
//
// Jitter costs Jitter/2 bytes per compressed response on average, a hash of
// JitterPrefix bytes (about 10 GB/s), and latency: the first JitterPrefix
// bytes (64 KiB by default) are held until the handler writes that much,
// flushes or returns. The prefix buffer is pooled, at most
// max(MinSize, 512, JitterPrefix when Jitter is set) bytes per response in
// flight. A compressed response costs one allocation of the middleware's,
// 8 bytes. A request body that RequestLimit decompresses costs at most the
// limit and 64 KiB of allocations, whatever it holds: about 2.4 KiB with a
// pooled gzip decoder, 56 KiB when the pool has none to give. Pooled
// compressors cost what gzpool's doc says (about 800 KB to 1.2 MB each for
// compress/flate) and are held like any reuse.Pool's values.
//
// # When not to use it
//
// Behind a proxy or CDN that compresses already, compressing twice only
// costs CPU. Responses that are mostly small (under 1 KiB) or already
// compressed pass through at the cost of the prefix buffering. For static
// files, precompress them once instead of on every request.
package httpcompress
