package debug

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// Action is what the debug build does with a report of one kind when no
// handler is installed.
type Action uint8

// The actions REUSEDEBUG can select.
const (
	// Panic panics with the report's String. For a double Put and a use
	// after Put that happens in the caller's goroutine, at the faulty call;
	// for a leak, in the runtime's cleanup goroutine, which ends the program.
	Panic Action = iota + 1
	// Log prints the report, with its stacks, to standard error.
	Log
	// Off ignores the report.
	Off
)

// String returns "panic", "log" or "off".
func (a Action) String() string {
	switch a {
	case Panic:
		return "panic"
	case Log:
		return "log"
	case Off:
		return "off"
	}
	return "unknown"
}

// EnvVar is the environment variable that sets the action per kind, read
// once, at the first report without a handler: a comma-separated list of
// kind=action, GODEBUG-style, with the kinds leak, doubleput and useafterput
// (or all) and the actions panic, log and off. For example
// REUSEDEBUG=leak=panic or REUSEDEBUG=all=log,leak=off.
const EnvVar = "REUSEDEBUG"

// defaults are the actions without REUSEDEBUG: a leak is found after the
// fact, on a background goroutine, so it is logged; a double Put and a use
// after Put are found at the faulty call, on the caller's goroutine, so they
// panic there.
var defaults = [...]Action{DoublePut: Panic, UseAfterPut: Panic, Leak: Log}

var policy struct {
	once    sync.Once
	actions [len(defaults)]Action
}

// ActionFor returns the action REUSEDEBUG selects for k, or k's default.
func ActionFor(k Kind) Action {
	policy.once.Do(func() {
		var warn string
		policy.actions, warn = ParsePolicy(os.Getenv(EnvVar))
		if warn != "" {
			fmt.Fprintf(os.Stderr, "reuse: %s=%q: %s\n", EnvVar, os.Getenv(EnvVar), warn)
		}
	})
	if int(k) >= len(policy.actions) {
		return Panic
	}
	return policy.actions[k]
}

// ParsePolicy parses a REUSEDEBUG value into the action for each kind,
// starting from the defaults. Invalid entries are skipped; warn describes
// them, empty when there are none.
func ParsePolicy(s string) (actions [len(defaults)]Action, warn string) {
	actions = defaults
	var bad []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		name, value, ok := strings.Cut(f, "=")
		var a Action
		switch value {
		case "panic":
			a = Panic
		case "log":
			a = Log
		case "off":
			a = Off
		default:
			ok = false
		}
		var kinds []Kind
		switch name {
		case "leak":
			kinds = []Kind{Leak}
		case "doubleput":
			kinds = []Kind{DoublePut}
		case "useafterput":
			kinds = []Kind{UseAfterPut}
		case "all":
			kinds = []Kind{DoublePut, UseAfterPut, Leak}
		default:
			ok = false
		}
		if !ok {
			bad = append(bad, f)
			continue
		}
		for _, k := range kinds {
			actions[k] = a
		}
	}
	if len(bad) > 0 {
		warn = fmt.Sprintf("ignoring %q: want kind=action, kind one of leak, doubleput, useafterput, all; action one of panic, log, off", bad)
	}
	return actions, warn
}

// Fallback does what REUSEDEBUG says with r: what the debug build does when
// no handler is installed.
func Fallback(r Report) {
	switch ActionFor(r.Kind) {
	case Off:
	case Log:
		fmt.Fprint(os.Stderr, r.String())
	default:
		panic(r.String())
	}
}
