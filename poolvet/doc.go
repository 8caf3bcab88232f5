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
//     Bytes, a subslice, a field, a string made with package unsafe), after
//     it was Put on that path; for a pooled handle, a use after Close. A
//     use counts through a reader or writer made over the value (bufio,
//     bytes.NewReader, http.ReadResponse, the codec constructors), through
//     a local struct or new object holding it, through a closure bound to
//     it and called after the Put, and through a deferred call or a
//     goroutine started before the Put, which run after it. Reported at
//     the use.
//   - double Put: a value Put twice on one path, including once by a
//     deferred Put and once explicitly; and a value kept in a struct field,
//     handed to a field of a new object whose value is Put, while the first
//     field still holds it and another function Puts it (CVE-2023-45286 in
//     go-resty v2.10.0). Reported at the second Put, or at the explicit one
//     when the other is deferred, or at the Put of the first field.
//   - escape: pooled memory returned (also inside a struct, or kept by a
//     reader over it), stored in a global or in memory reached from a
//     parameter (also appended to a slice there), or sent on a channel
//     while a deferred Put gives it back at return (reported at the return
//     or store); or stored or sent and then Put (reported at the store).
//   - non-pointer values Put into a sync.Pool (slices, arrays, structs,
//     strings): each Put allocates to box the value. Reported at the Put,
//     with the fix (*T, reuse.Pool[T] or reuse.Slices).
//   - missing Reset: a value with a Reset method (*bytes.Buffer,
//     *strings.Builder) used and then Put, on some path from its Get, without
//     a Reset, into an unexported sync.Pool or a reuse.Pool with neither a
//     Reset nor an Accept hook, when some Get of that pool also uses its
//     value before a Reset. Reported at the Put.
//   - leak: a value taken from a pool (a Get, or a pooled handle's
//     constructor) that is not given back on some path to a return:
//     an early return, an error path, a case of a switch. The GC collects
//     it, so this is a reuse missed (for a handle, its codec state lost),
//     not a corruption. Reported at the Get; -leak=false turns it off.
//     A parameter (or the value in a field of one) that the function owns
//     is checked too, from its entry: one it gives back on some path, or
//     that its callers take from a pool and hand over, when it also hands
//     it on somewhere and no caller gives it back itself. Reported at each
//     return that loses it, or, where the callers hand it over and the
//     function returns an error there, at the call.
//
// A leak is told from a hand-off by what the function does with the value
// on any path: returning it, storing it anywhere but in a local variable,
// sending it, starting a goroutine with it, or passing it to a function of
// the program hands it on, and no leak is reported. Passing it to a
// function of the standard library whose results cannot carry it back
// (fmt.Fprintf(b, ...), json.Unmarshal(data, v), io.Copy) only lends it,
// and so do method calls on it and reading numbers from it.
//
// Functions that give back one of their parameters on every path that
// returns (a helper that Puts its argument, a method that Puts its
// receiver, one that first drops large values, a pool type's Put that
// boxes the value or drops it on the pool's own state) are exported as
// facts, so the checks follow them across packages. So are Get wrappers:
// functions and methods whose result is, on every return, a value of a
// Get or new memory, when their package gives back values of that type
// (a pool type with Get and Put methods, valyala/bytebufferpool's Get);
// a value they return is checked like a Get's. Function literals assigned
// to package-level variables are checked like declared functions. Two
// kinds of release that do not end the caller's ownership on every path
// are exported too:
//
//   - a reference count: a Put decided by a branch on a counter of the
//     value (an integer field the package counts up and down, or adds to
//     atomically) drops a reference; other owners may still use the
//     value, so it is given back for the leak check and ends nothing for
//     the others (quic-go's packet buffers, split between packets);
//   - a release signalled by a result: a function that Puts a parameter
//     on every path returning one bool constant and on none returning the
//     other (if done := x.recycleIfDone(); !done { use(x) }) gives it back
//     only on the branches where its result says so.
//
// b = append(b[:0], p...) is the same pooled slice for a Put of b.
//
// # Precision
//
// A vet check that cries wolf gets turned off, so poolvet prefers no report
// to a false one. It follows values through local variables, conversions,
// interfaces, closures that capture a variable assigned once, method values
// and method expressions, and a pointer field of one holder (c.buf): loads
// of that field are one value while the same store reaches them, so
// old := c.h; c.h = pool.Get(); pool.Put(old) Puts the old buffer only. It
// does not follow other values stored in memory and loaded back, nor calls
// through interfaces or function values, nor ownership across functions
// through struct fields other than the hand-off above. A parameter given
// back only on some paths (say, on error) makes no fact. A slice loaded
// from a field that the package clears before Put is not counted as pooled
// memory. Handing a value to a goroutine hands over its ownership, and
// closing a handle twice is allowed (it returns an error by contract).
//
// The repository's poolvet/README.md gives its recall on its test suites
// and its findings on popular modules it was not written for.
//
// # Running it
//
// No version of the module is tagged yet, so go install of
// github.com/reuse-go/reuse/poolvet/cmd/poolvet@latest fails; install it
// from a clone of https://github.com/reuse-go/reuse instead:
//
//	git clone https://github.com/reuse-go/reuse ../reuse
//	(cd ../reuse/poolvet && go install ./cmd/poolvet)
//
// Once a release is tagged, go install
// github.com/reuse-go/reuse/poolvet/cmd/poolvet@v0.1.0 does the same.
//
// Standalone, over packages and their tests:
//
//	poolvet ./...
//
// Through go vet, which uses the build cache:
//
//	go vet -vettool=$(which poolvet) ./...
//
// As a golangci-lint module plugin: see package
// github.com/reuse-go/reuse/poolvet/plugin.
//
// # Fixes
//
// Where the change is mechanical, a report carries a suggested fix, which
// go fix -fixtool=$(which poolvet) ./... (Go 1.26 or newer) or poolvet -fix
// ./... applies:
//
//   - a sync.Pool of non-pointers keeps pointers: its New returns &v, and a
//     function that Gets a value into a variable b and Puts b back keeps
//     the pointer it got (bp := pool.Get().(*[]byte); b := *bp; ...;
//     *bp = b[:0]; pool.Put(bp)), so that no Put allocates. Only for an
//     unexported package-level pool whose every use is in that form;
//   - a missing Reset: b.Reset() before the Put, or after the Get when the
//     Put is deferred;
//   - pooled memory returned past a deferred Put: a copy, with bytes.Clone,
//     slices.Clone or strings.Clone.
package poolvet
