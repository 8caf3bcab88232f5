package reuse

import "errors"

// ErrTooLarge is matched, with errors.Is, by every error of this module and
// its nested modules that reports input or output past a caller's limit:
//
//   - codec, gzpool, zlibpool, flatepool and kgzip: Decompress past its limit
//     (their ErrTooLarge);
//   - jsonpool: Decode and Values.Decode past their limit, and when the
//     reader fails with an error of the kind itself (an httpcompress request
//     body past Config.RequestLimit) or with an *http.MaxBytesError (a body
//     behind http.MaxBytesReader) (jsonpool.ErrTooLarge);
//   - httpcompress and khttp: a Read of a decompressed request body past
//     Config.RequestLimit (httpcompress.ErrRequestTooLarge, beside an
//     *http.MaxBytesError).
//
// The package sentinels stay, each wrapping ErrTooLarge, so that a check for
// one package's error keeps working; a server that answers 413 needs only
//
//	if errors.Is(err, reuse.ErrTooLarge) { ... }
//
// Each of these limits is an int64, as http.MaxBytesReader's and
// io.LimitReader's are, so that one value serves all of them.
var ErrTooLarge = errors.New("larger than the limit")
