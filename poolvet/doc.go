// Package poolvet is a static analyzer that finds misuse of pooled values
// before the program runs: the bugs the debug build of reuse catches at run
// time, on the paths a test happens to take, found in the source instead.
//
// It understands sync.Pool and the pools and handles of
// github.com/reuse-go/reuse: reuse.Pool, reuse.Slices, bytebuf.Pool,
// jsonpool.Values, the codec Writer and Reader handles of gzpool, zlibpool,
// flatepool and kgzip, and the bufiopool Reader and Writer.
//
// # Checks
//
// On the paths of each function's control-flow graph (an SSA form), it
// reports:
//
//   - use after Put: a use of a value, or of memory that shares it (its
//     Bytes, a subslice, a field), after it was Put on that path; for a
//     pooled handle, a use after Close. Reported at the use.
//   - double Put: a value Put twice on one path, including once by a
//     deferred Put and once explicitly (the shape of CVE-2023-45286).
//     Reported at the second Put, or at the explicit one when the other is
//     deferred.
//   - escape: pooled memory returned, stored in a global or in memory
//     reached from a parameter, or sent on a channel while a deferred Put
//     gives it back at return (reported at the return or store); or stored
//     or sent and then Put (reported at the store).
//   - non-pointer values Put into a sync.Pool (slices, arrays, structs,
//     strings): each Put allocates to box the value. Reported at the Put,
//     with the fix (*T, reuse.Pool[T] or reuse.Slices).
//   - missing Reset: a value with a Reset method (*bytes.Buffer,
//     *strings.Builder) Put into an unexported sync.Pool whose Gets, all in
//     this package, never reset it either. Reported at the Put.
//   - with -leak, a quieter check that is off by default: a value taken from
//     a pool that never leaves the function (not returned, stored, sent or
//     passed on) and is not given back on some path to a return. That is a
//     missed reuse, not a bug: the GC collects the value. Reported at the
//     Get.
//
// Functions that give back one of their parameters on every path that
// returns (a helper that Puts its argument, a method that Puts its
// receiver, one that first drops large values) are exported as facts, so
// the checks follow them across packages.
//
// # Precision
//
// A vet check that cries wolf gets turned off, so poolvet prefers no report
// to a false one. It follows values through local variables, conversions,
// interfaces, closures that capture a variable assigned once, method values
// and method expressions, and a pointer field of one holder (c.buf) until
// the field is stored to or the holder is passed to a call; it does not
// follow other values stored in memory and loaded back, nor calls through
// interfaces or function values, nor ownership across functions through
// struct fields (the double Put of CVE-2023-45286 lived there). A
// parameter given back only on some paths (say, on error) makes no fact.
// A slice loaded from a field that the package clears before Put is not
// counted as pooled memory. Handing a value to a goroutine hands over its
// ownership, and closing a handle twice is allowed (it returns an error by
// contract).
//
// # Running it
//
// Standalone, over packages and their tests:
//
//	go install github.com/reuse-go/reuse/poolvet/cmd/poolvet@latest
//	poolvet ./...
//
// Through go vet, which uses the build cache:
//
//	go vet -vettool=$(which poolvet) ./...
//
// As a golangci-lint module plugin: see package
// github.com/reuse-go/reuse/poolvet/plugin.
package poolvet
