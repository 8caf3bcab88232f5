//go:build reusedebug && !tinygo

package kgzip_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/kgzip"
	"github.com/reuse-go/reuse/reusetest"
)

// recordTB records Errorf calls and runs cleanups when told to.
type recordTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *recordTB) Helper() {}
func (r *recordTB) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recordTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recordTB) end() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

//go:noinline
func leakWriter() {
	w, _ := kgzip.NewWriter(io.Discard, -1)
	w.Write([]byte("x"))
}

//go:noinline
func leakReader() {
	src, _ := kgzip.Compress(nil, []byte("hello"), -1)
	r, _ := kgzip.NewReader(bytes.NewReader(src))
	r.Read(make([]byte, 1))
}

// TestLeaksReported is the root module's TestEveryPoolReportsLeaks for
// kgzip: a Writer or Reader dropped without Close is reported, once, with
// the function that opened it and the call it made.
func TestLeaksReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		leak func()
		call string // the call the report must name
	}{{"leakWriter", leakWriter, "kgzip.NewWriter"}, {"leakReader", leakReader, "kgzip.NewReader"}} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &recordTB{TB: t}
			reusetest.FailOnMisuse(rt)
			tc.leak()
			rt.end()
			if len(rt.errors) != 1 || !strings.Contains(rt.errors[0], "reuse: leak on") || !strings.Contains(rt.errors[0], "kgzip_test."+tc.name) {
				t.Errorf("%s: reports %q, want one leak naming it", tc.name, rt.errors)
			} else if want := " was taken by " + tc.call + " at "; !strings.Contains(rt.errors[0], want) {
				t.Errorf("%s: report %q, want it to name the call, %q", tc.name, rt.errors[0], want)
			}
		})
	}
}
