package debug

import (
	"strings"
	"testing"
)

func TestParsePolicy(t *testing.T) {
	tests := []struct {
		in                   string
		doublePut, uap, leak Action
		warn                 string // a substring of the warning; "" for none
	}{
		{"", Panic, Panic, Log, ""},
		{"leak=panic", Panic, Panic, Panic, ""},
		{"leak=off,doubleput=log", Log, Panic, Off, ""},
		{"all=log", Log, Log, Log, ""},
		{"all=off, useafterput=panic", Off, Panic, Off, ""},
		{"leak=panic,leak=log", Panic, Panic, Log, ""}, // the last one wins
		{",,leak=off,", Panic, Panic, Off, ""},
		{"leak=loud", Panic, Panic, Log, `"leak=loud"`},
		{"leaks=panic,leak=off", Panic, Panic, Off, `"leaks=panic"`},
		{"leak", Panic, Panic, Log, `"leak"`},
	}
	for _, tc := range tests {
		got, warn := ParsePolicy(tc.in)
		if got[DoublePut] != tc.doublePut || got[UseAfterPut] != tc.uap || got[Leak] != tc.leak {
			t.Errorf("ParsePolicy(%q) = doubleput=%v useafterput=%v leak=%v, want %v %v %v",
				tc.in, got[DoublePut], got[UseAfterPut], got[Leak], tc.doublePut, tc.uap, tc.leak)
		}
		if (tc.warn == "") != (warn == "") || !strings.Contains(warn, tc.warn) {
			t.Errorf("ParsePolicy(%q): warning %q, want one containing %q", tc.in, warn, tc.warn)
		}
	}
}
