// Package debug is the bookkeeping behind the debug build (-tags reusedebug):
// it catches double Puts, writes to objects after Put, and objects taken by
// Get and never given back.
//
// Pools call the hooks in this package only inside "if debug.Enabled { ... }".
// Enabled is a constant, false unless the build has the reusedebug tag, so
// the compiler removes the hooks, their arguments and the branch from every
// pool method of a normal build: no field, no branch and no call is left on
// the hot path.
//
// # Side tables
//
// Nothing is stored in the pools or in the objects. Each object a pool has
// seen has a record in a sharded table keyed by a weak pointer to the object,
// so the table never keeps an object alive and a dead object's key never
// matches a new object allocated at the same address. A cleanup
// (runtime.AddCleanup) attached to each tracked object removes its record when
// the object is collected, and reports a leak when the object was out (taken
// by Get, not Put back). Records hold stacks as program counters and
// addresses as integers only.
//
// # Hooks
//
// A pool calls Put first thing in its Put, and does not store the object when
// Put returns false (a double Put, already reported). Right before storing,
// after any reset, it calls Seal with the memory to protect. In Get it calls
// Got with the object it hands out, and Check with the same memory as it is
// now. Pools layered on another tracked pool call only Seal and Check, for
// the memory the inner pool does not cover.
//
// # TinyGo
//
// Under TinyGo (build tag tinygo) records are keyed by address and no
// cleanups are attached: leak detection is off (Leaks is false), and a record
// outlives its object, so an object collected while in a pool and a new one
// allocated at its address share a record.
package debug
