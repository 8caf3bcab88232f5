// Package httpcompress compresses HTTP responses, and optionally
// decompresses request bodies, with pooled compressors that are never
// shared between two responses.
//
//	http.Handle("/", httpcompress.Handler(mux)) // gzip, 1 KiB minimum
//
//	mw, err := httpcompress.New(httpcompress.Config{
//		Level:        gzip.BestSpeed,
//		RequestLimit: 10 << 20, // gzip request bodies, 413 past 10 MiB
//	})
//	http.Handle("/", mw(mux))
//
// The package uses the standard library only. The nested module
// github.com/reuse-go/reuse/httpcompress/khttp offers the same Config over
// klauspost/compress, with faster gzip and zstd for the
// clients that accept it. Each Encoding pools its compressors with the
// codec package, the engine behind gzpool, as gzhttp plugs its writers in
// through a factory; a new coding is a codec.Format and an Open function.
//
// # Differences from net/http
//
// A handler behind the middleware sees net/http's behaviour, and its
// client gets the same status, header and body, but for these differences
// (FuzzNetHTTP checks each against net/http on a real server):
//
//   - Every response has Accept-Encoding in Vary.
//   - A compressed response has Content-Encoding, no Content-Length (a
//     Write past the handler's Content-Length fails with
//     http.ErrContentLength while the start of the body is held, as with
//     net/http, and is compressed once it is not), no Accept-Ranges unless
//     Config.KeepAcceptRanges, its ETag rewritten by Config.ETag, and
//     the sniffed Content-Type in its header map; a 304 that revalidates
//     one carries the compressed response's ETag.
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
//   - A handler that panics leaves a compressed response truncated (see
//     the table below).
//
// # Behaviour, point by point, against klauspost/compress/gzhttp
//
// gzhttp (v1.18.0) is the handler most Go services use; this package set out
// to match or beat it on each point. "Same" means the same observable
// behaviour.
//
//	point                    httpcompress                                  gzhttp
//	Accept-Encoding          RFC 9110 q-values in thousandths, no          q as float; "*" not honoured; x-gzip not
//	                         allocation; "*" covers unlisted codings;      recognised; a bad q reads as 0
//	                         x-gzip means gzip; a malformed q is a
//	                         refusal; several field lines combine
//	several codings          highest q wins, ties go to Config.Encodings'  gzip only
//	                         order (khttp: zstd, then gzip)
//	identity;q=0             compresses even below MinSize                 ignored
//	no Accept-Encoding       identity                                      same
//	HEAD                     never compressed (nginx #358, golang/go#5522) same
//	minimum size             decided on a prefix of at most MinSize bytes  same, copying every Write into its
//	                         (512 when Content-Type must be sniffed), or   prefix buffer first
//	                         on Content-Length; a single large Write is
//	                         decided on without copying it
//	content types            by Content-Type, or sniffed from the prefix   same mechanism; its default list
//	                         (and then set, as net/http would); default    compresses PNG, GIF, WebP, WOFF,
//	                         Compressible skips images but SVG/BMP/ICO/    WOFF2 and rar
//	                         TIFF, audio, video, WOFF/WOFF2, archives
//	handler's own encoding   any Content-Encoding, Content-Range or 206    same
//	                         passes through untouched
//	Vary                     Accept-Encoding on every response, added      added first to every response: lost
//	                         once, put back on a compressed response       if the handler sets Vary, doubled if
//	                         whose handler replaced Vary                   it adds Accept-Encoding too
//	Content-Length           removed when compressing; net/http then sets  same
//	                         the compressed one or uses chunked encoding
//	ETag                     strong tags weakened by default (W/"x"), so   kept unchanged by default; options to
//	                         If-None-Match still gives 304 and an If-Range suffix or drop, which a 304 does not
//	                         entity tag never matches; options to suffix,  get: it keeps the handler's tag
//	                         drop, keep; a 304 carries the tag of the
//	                         compressed response it revalidates
//	If-Range by date         Range and If-Range removed from a request     passes through: a 206 of the
//	                         that accepts a coding: the whole response is  uncompressed body, which a client
//	                         sent, as the date cannot tell which body the  holding compressed bytes splices
//	                         client holds part of                          onto them
//	Range, Accept-Ranges     206 passes through; Accept-Ranges removed     same
//	                         from compressed responses unless kept
//	1xx                      forwarded at once (103 Early Hints works)     same
//	204, 304                 no body, no Content-Encoding                  same
//	Flush                    decides at once (streaming: MinSize no longer same when something was written; a
//	                         applies), flushes the compressor then the     Flush before any Write does nothing,
//	                         connection; SSE works; also FlushError        so an SSE stream's headers wait
//	ResponseController       FlushError, Hijack, Unwrap (deadlines,        Flush, Hijack, Unwrap; no FlushError,
//	                         EnableFullDuplex)                             so rc.Flush loses write errors
//	io.ReaderFrom            yes: sendfile when not compressing, a pooled  no: io.Copy allocates 32 KiB per call
//	                         32 KiB buffer when compressing                unless the source has WriteTo
//	per-response writer      an 8-byte handle per request over a pooled    pooled and reused: a leaked
//	                         state; the handle is cut from the state when  ResponseWriter writes into a later
//	                         the handler returns, so a leaked              response
//	                         ResponseWriter gets an error and reaches
//	                         nothing
//	handler panic            the compressor is given back without ending   the stream is ended, so a recovering
//	                         its stream: the client sees a truncated       middleware sends a valid-looking
//	                         response, never a complete-looking one        truncated body
//	client disconnect        writes fail, Close still gives the            same
//	                         compressor back
//	pooled compressor refs   written only through a sink cleared on Put:   keeps the last ResponseWriter
//	                         a pooled compressor references no response    reachable while pooled
//	BREACH jitter            1..Jitter bytes in the gzip comment (zstd:    same placement; CRC-32 or SHA-256 of
//	                         a skippable frame), sized by maphash of the   the prefix, unkeyed
//	                         prefix with a random key per handler:
//	                         deterministic, so repeats do not average it
//	                         out, and not computable without the key
//	request bodies           optional (RequestLimit), in every coding      optional, gzip only: unbounded, a
//	                         offered (khttp: zstd and gzip) and gzip:      bomb grows memory without limit
//	                         pooled bounded reader, *http.MaxBytesError
//	                         past the limit, 413 when the handler writes
//	                         nothing
//	HTTP/2                   tested in CI over TLS and h2c as over         works as any net/http middleware
//	                         HTTP/1.1: Flush and SSE, ResponseController,  does; its tests run over HTTP/1.1
//	                         trailers, a client cancelling mid-body,       and httptest recorders only
//	                         handler panics, request bodies and bombs,
//	                         200 concurrent clients; goroutines return to
//	                         their baseline
//	real browser             headless Chromium in CI, gzip and zstd        not tested in a browser
//	                         (khttp), over HTTP/1.1 and HTTP/2: a JSON
//	                         resource's SHA-256, 20 server-sent events
//	                         sent 100 ms apart arriving over at least
//	                         1.5 s, a streamed body's first chunk read
//	                         before the handler ends, a revalidation
//	                         answered 304 with W/"v1", a HEAD
//
// # Ownership
//
// A compressor comes from a pool when a response starts compressing and goes
// back exactly once, when the handler returns (or panics, or hijacks the
// connection); the prefix buffer likewise. Both are reachable only from the
// response's state, which is pooled too, and the state only from the
// ResponseWriter the handler was given: a handle made for one request and
// cut from the state when the handler returns. After that its methods
// return an error and reach nothing, so a handler that leaks it to a
// goroutine cannot write into another response. The header values the
// package sets (Vary, Content-Encoding) are backed by arrays in the state
// that are written once, when the state is made; a state whose arrays a
// handler overwrote in place is dropped instead of reused. A pooled compressor writes only to a sink of its own that is
// cleared when it is given back, so it keeps no ResponseWriter alive.
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
// flight. A request body that RequestLimit decompresses costs at most the
// limit and 64 KiB of allocations, whatever it holds: about 2.4 KiB with a
// pooled gzip decoder, 56 KiB when the pool has none to give. Pooled
// compressors cost what gzpool's doc says (about 800 KB to
// 1.2 MB each for compress/flate) and are held like any reuse.Pool's values.
// Against gzhttp at the same level with the same deflate, a compressed
// response costs one allocation of the middleware's (8 bytes) against three,
// the same time within 1% and the same compressed size to the byte; the
// figures are in the benchmarks module's README.
//
// # When not to use it
//
// Behind a proxy or CDN that compresses already, compressing twice only
// costs CPU. Responses that are mostly small (under 1 KiB) or already
// compressed pass through at the cost of the prefix buffering. For static
// files, precompress them once instead of on every request.
package httpcompress
