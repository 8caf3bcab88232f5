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

// modulePrefix is the path of the module and of its nested modules.
const modulePrefix = "github.com/reuse-go/reuse"

// userDirs are the directories of the module, and nested modules, whose
// packages use the pools as a program does: their frames are the caller's.
var userDirs = [...]string{"/benchmarks", "/cmd", "/examples", "/ports", "/tools"}

// internal reports whether f is a frame of the module's own library code:
// the pools, the codecs and the debug machinery, which a report leaves out
// up to the caller's first frame. It goes by the package path, not by the
// names of functions, and a frame of a _test.go file is the caller's, even
// in a package of the module (a white-box test), as are the frames of the
// module's programs (userDirs) and of packages of other modules that share
// the prefix.
func internal(f runtime.Frame) bool {
	fn := f.Function
	if !strings.HasPrefix(fn, modulePrefix) || strings.HasSuffix(f.File, "_test.go") {
		return false
	}
	rest := fn[len(modulePrefix):]
	if rest == "" || (rest[0] != '.' && rest[0] != '/') {
		return false // another module sharing the prefix
	}
	for _, d := range userDirs {
		if strings.HasPrefix(rest, d+"/") || strings.HasPrefix(rest, d+".") {
			return false
		}
	}
	// An external test package (bytebuf_test) is the caller's too.
	pkg := rest[strings.LastIndexByte(rest, '/')+1:]
	if i := strings.IndexByte(pkg, '.'); i >= 0 {
		pkg = pkg[:i]
	}
	return !strings.HasSuffix(pkg, "_test")
}

// frames returns the frames of s from the caller's first one: the frames of
// the module's library code before it are left out, those after it (a
// middleware of the module that called the caller's handler) are kept.
// Where no frame is the caller's (a pool used by the module alone), it
// returns them all.
func (s *stack) frames() []runtime.Frame {
	var all []runtime.Frame
	first := -1
	frames := runtime.CallersFrames(s.pcs[:s.n])
	for {
		f, more := frames.Next()
		if f.Function != "" {
			if first < 0 && !internal(f) {
				first = len(all)
			}
			all = append(all, f)
		}
		if !more {
			break
		}
	}
	if first < 0 {
		return all
	}
	return all[first:]
}

// site returns "file:line" of the caller's first frame: the code that
// called the pool.
func (s *stack) site() string {
	if fs := s.frames(); len(fs) > 0 {
		return fs[0].File + ":" + strconv.Itoa(fs[0].Line)
	}
	return "unknown"
}

// api returns the method or function of the module the caller called, as
// "pkg: Type.Method" ("bytebuf: Buffer.Write"): the last frame of the
// module's library code before the caller's first one. It returns "" where
// there is none.
func (s *stack) api() string {
	name := ""
	frames := runtime.CallersFrames(s.pcs[:s.n])
	for {
		f, more := frames.Next()
		if f.Function != "" {
			if !internal(f) {
				break
			}
			name = f.Function
		}
		if !more {
			break
		}
	}
	return apiName(name)
}

// call returns the call the caller made into the module, as it reads in the
// caller's code: "gzpool.NewWriter", "reuse.Slices.Get" (see api). It
// returns def where there is none.
func (s *stack) call(def string) string {
	if a := s.api(); a != "" {
		return strings.Replace(a, ": ", ".", 1)
	}
	return def
}

// apiName turns "github.com/reuse-go/reuse/bytebuf.(*Buffer).Write" into
// "bytebuf: Buffer.Write", and a generic "reuse.(*Pool[...]).Put" into
// "reuse: Pool.Put".
func apiName(fn string) string {
	if fn == "" {
		return ""
	}
	pkg := "reuse"
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
		j := strings.IndexByte(fn, '.')
		if j < 0 {
			return ""
		}
		pkg, fn = fn[:j], fn[j+1:]
	} else if j := strings.IndexByte(fn, '.'); j >= 0 {
		fn = fn[j+1:]
	}
	fn = strings.NewReplacer("(*", "", ")", "", "[...]", "").Replace(fn)
	return pkg + ": " + fn
}

// format appends the labelled stack to b, from the caller's first frame,
// one frame per two lines as in a panic.
func (s *stack) format(b *strings.Builder, label string) {
	b.WriteString(label)
	b.WriteString(":\n")
	fs := s.frames()
	if len(fs) == 0 {
		b.WriteString("\t(unknown)\n")
		return
	}
	for _, f := range fs {
		b.WriteString("\t")
		b.WriteString(f.Function)
		b.WriteString("\n\t\t")
		b.WriteString(f.File)
		b.WriteString(":")
		b.WriteString(strconv.Itoa(f.Line))
		b.WriteString("\n")
	}
}
