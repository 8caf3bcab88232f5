package debug

import (
	"sync"
	"sync/atomic"
)

// Kind is the kind of misuse a Report describes.
type Kind uint8

// The kinds of misuse the debug build detects.
const (
	// DoublePut is a Put of an object already put back and not taken out
	// since. The second Put does not store the object.
	DoublePut Kind = iota + 1
	// UseAfterPut is an object used after its Put: a method called on it
	// (Live), or its memory changed between its Put and its next Get
	// (Check).
	UseAfterPut
	// Leak is an object taken by Get and collected without being Put back.
	Leak
)

// String returns "double Put", "use after Put" or "leak".
func (k Kind) String() string {
	switch k {
	case DoublePut:
		return "double Put"
	case UseAfterPut:
		return "use after Put"
	case Leak:
		return "leak"
	}
	return "unknown misuse"
}

// Report describes one misuse.
type Report struct {
	Kind Kind
	// Pool names the pool: its type and address.
	Pool string
	// Detail says what happened, in one line.
	Detail string
	// Site is "file:line" of the caller's call that misused the pool (the
	// second Put, the use after Put, the next Get), or of the Get of a
	// leaked object: the caller's first frame, past the module's own.
	Site string
	// Stacks holds the labelled stacks (the two Puts, or the Put and the Get,
	// or the Get of a leaked object), formatted like a panic's.
	Stacks string
}

// String formats r as a multi-line message starting with "reuse: ".
func (r Report) String() string {
	return "reuse: " + r.Kind.String() + " on " + r.Pool + ": " + r.Detail + "\n" + r.Stacks
}

// handler holds where reports go; nil means Fallback.
var handler atomic.Pointer[Handler]

// Handler is where reports go.
type Handler struct {
	// F receives each report.
	F func(Report)
	// Orig is what the installer wants back from Swap, such as the exported
	// function F wraps.
	Orig any
	// Scoped limits the handler's ownership of the leaks of the objects
	// taken by Get while it was installed (every handler owns those, even
	// after another replaced it) to the time until Close; after Close they
	// are only printed to standard error. A test's handler is scoped, so
	// that a leak found after the test cannot fail or crash another one.
	Scoped bool

	mu     sync.RWMutex // held for reading while F runs for a leak
	closed bool         // protected by mu
}

// Close ends h's scope: once Close returns, F is not running for a leak and
// is never called again for one.
func (h *Handler) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
}

// Swap installs h (nil for the default, Fallback: what REUSEDEBUG says, by
// default a panic for a double Put or use after Put, a log line for a leak)
// and returns the previous handler, nil for the default. F may be
// called from any goroutine, including the runtime's cleanup goroutines for
// leaks, and concurrently.
func Swap(h *Handler) (previous *Handler) {
	if h != nil && h.F == nil {
		h = nil
	}
	return handler.Swap(h)
}

// Mode says how Seal protects an object's memory until Check.
type Mode uint8

const (
	// Poison fills the memory with a pattern at Seal and checks it at Check,
	// so a stale reader sees the pattern rather than another user's data.
	// Only for memory that holds no pointers and where any byte value is
	// valid (bytes, integers, floats).
	Poison Mode = iota
	// Snapshot keeps a copy (or, above snapshotCopyMax bytes, a hash) of the
	// memory at Seal and compares it at Check. The memory is not changed.
	Snapshot
	modes
)

// Pattern is the poison written by Seal(…, Poison), repeated.
var Pattern = [4]byte{0xDE, 0xAD, 0xBE, 0xEF}
