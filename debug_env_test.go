//go:build reusedebug && !tinygo && !js && !wasip1

package reuse_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reusetest"
)

// helperEnv selects the program TestDebugBuildProgram runs in a child
// process of the test binary.
const helperEnv = "REUSE_TEST_HELPER"

// The programs' pools, at package level so that they outlive what they
// hand out.
var (
	progPool = reuse.Pool[*dbgObj]{New: func() *dbgObj { return new(dbgObj) }}
	progBufs bytebuf.Pool
)

//go:noinline
func progDrop() {
	x := progPool.Get()
	x.n = 1
	progBufs.Get().WriteString("dropped")
}

//go:noinline
func progDiscard() {
	x := progPool.Get()
	x.n = 2
	progPool.Discard(x)
	b := progBufs.Get()
	b.WriteString("discarded")
	progBufs.Discard(b)
}

// TestDebugBuildProgram is the program run by TestDebugBuildLeaks: it drops
// or discards values, then collects so that leaks are found, and exits.
// It does nothing when run as a test.
func TestDebugBuildProgram(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case "drop":
		progDrop()
	case "discard":
		progDiscard()
	case "both":
		progDiscard()
		progDrop()
	default:
		return
	}
	for range 3 {
		reusetest.Collect()
	}
	os.Stdout.WriteString("program finished\n")
}

// TestDebugBuildLeaks runs programs that drop pooled values, as code written
// for sync.Pool does, in child processes: by default they report each leak
// on standard error with its Get stack and carry on; a Discard silences one;
// REUSEDEBUG=leak=panic makes the first leak end the program.
func TestDebugBuildLeaks(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("in the child process")
	}
	tests := []struct {
		name, program, env string
		crash              bool     // the program must die
		want, wantNot      []string // in its output
	}{
		{"default logs", "drop", "", false,
			[]string{"reuse: leak on *reuse.Pool[*github.com/reuse-go/reuse_test.dbgObj]", "reuse: leak on *bytebuf.Pool", "reuse_test.progDrop", "program finished"},
			[]string{"panic:"}},
		{"Discard silences", "both", "", false,
			[]string{"reuse_test.progDrop", "program finished"},
			[]string{"reuse_test.progDiscard", "panic:"}},
		{"Discard alone", "discard", "", false,
			[]string{"program finished"},
			[]string{"reuse: leak", "panic:"}},
		{"leak=panic", "drop", "leak=panic", true,
			[]string{"panic: reuse: leak on", "reuse_test.progDrop"},
			[]string{"program finished"}},
		{"leak=off", "drop", "leak=off", false,
			[]string{"program finished"},
			[]string{"reuse: leak"}},
		{"invalid entry warns, default stays", "drop", "leak=loud", false,
			[]string{`REUSEDEBUG="leak=loud": ignoring`, "reuse: leak on", "program finished"},
			[]string{"panic:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestDebugBuildProgram$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperEnv+"="+tc.program, "REUSEDEBUG="+tc.env)
			out, err := cmd.CombinedOutput()
			if crashed := err != nil; crashed != tc.crash {
				t.Fatalf("program %s with REUSEDEBUG=%q: exit error %v, want crash=%v; output:\n%s", tc.program, tc.env, err, tc.crash, out)
			}
			for _, s := range tc.want {
				if !strings.Contains(string(out), s) {
					t.Errorf("program %s with REUSEDEBUG=%q: output lacks %q:\n%s", tc.program, tc.env, s, out)
				}
			}
			for _, s := range tc.wantNot {
				if strings.Contains(string(out), s) {
					t.Errorf("program %s with REUSEDEBUG=%q: output has %q:\n%s", tc.program, tc.env, s, out)
				}
			}
		})
	}
}
