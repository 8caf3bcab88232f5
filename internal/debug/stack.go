//go:build reusedebug

package debug

import (
	"runtime"
	"strconv"
	"strings"
)

// depth is how many frames a stack keeps.
const depth = 32

// stack is a call stack kept as program counters, so that it holds no memory
// alive and records it without allocating.
type stack struct {
	pcs [depth]uintptr
	n   int
}

// capture records the stack of the caller of the hook that calls capture.
func (s *stack) capture() {
	s.n = runtime.Callers(3, s.pcs[:])
}

const (
	modulePrefix = "github.com/reuse-go/reuse"
	debugPrefix  = modulePrefix + "/internal/debug."
	// The root package's hook helpers are named debugXxx.
	rootHookPrefix = modulePrefix + ".debug"
)

// isHook reports whether fn is part of the debug machinery rather than a pool
// or its caller.
func isHook(fn string) bool {
	return strings.HasPrefix(fn, debugPrefix) || strings.HasPrefix(fn, rootHookPrefix)
}

// inModule reports whether fn belongs to a non-test package of the module.
func inModule(fn string) bool {
	if !strings.HasPrefix(fn, modulePrefix) {
		return false
	}
	rest := fn[len(modulePrefix):]
	if rest == "" || (rest[0] != '.' && rest[0] != '/') {
		return false // another module sharing the prefix
	}
	// Test packages are callers, like user code.
	pkg := rest
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i:]
	}
	if i := strings.IndexByte(pkg, '.'); i >= 0 {
		pkg = pkg[:i]
	}
	return !strings.HasSuffix(pkg, "_test")
}

// site returns "file:line" of the first frame outside the module's packages:
// the code that called the pool.
func (s *stack) site() string {
	frames := runtime.CallersFrames(s.pcs[:s.n])
	first := ""
	for {
		f, more := frames.Next()
		if f.Function != "" && !isHook(f.Function) {
			loc := f.File + ":" + strconv.Itoa(f.Line)
			if first == "" {
				first = loc
			}
			if !inModule(f.Function) {
				return loc
			}
		}
		if !more {
			return first
		}
	}
}

// format appends the labelled stack to b, one frame per two lines as in a
// panic.
func (s *stack) format(b *strings.Builder, label string) {
	b.WriteString(label)
	b.WriteString(":\n")
	if s.n == 0 {
		b.WriteString("\t(unknown)\n")
		return
	}
	frames := runtime.CallersFrames(s.pcs[:s.n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !isHook(f.Function) {
			b.WriteString("\t")
			b.WriteString(f.Function)
			b.WriteString("\n\t\t")
			b.WriteString(f.File)
			b.WriteString(":")
			b.WriteString(strconv.Itoa(f.Line))
			b.WriteString("\n")
		}
		if !more {
			break
		}
	}
}
