// Package ports holds ports onto reuse of the pooling code of real
// open-source projects, each beside the original it reproduces, with a test
// that their output matches and a benchmark of the two in one run:
//
//   - template: valyala/fasttemplate's Template, one bytebufferpool.Pool per
//     template, Reset before Put, string(bb.B) before giving the buffer back.
//   - logger: rs/zerolog's event pool, a sync.Pool of *Event whose buffers
//     over 64 KiB are dropped instead of put back.
//   - httpclient: go-resty/resty's request body buffers, a sync.Pool of
//     *bytes.Buffer, with a retry path that sends the same body again.
//
// MIGRATING.md at the repository root walks through what changed in each.
package ports
