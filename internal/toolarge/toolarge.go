// Package toolarge makes the package sentinels that wrap the module's one
// sentinel for input or output past a caller's limit, reuse.ErrTooLarge.
// The sentinel is declared in package reuse, so that go doc shows it as a
// plain error; the root package imports none of the packages that import
// this one, so there is no cycle.
package toolarge

import "github.com/reuse-go/reuse"

// Err is reuse.ErrTooLarge.
var Err = reuse.ErrTooLarge

// Sentinel returns a package's own sentinel: an error whose message is msg
// and which errors.Is matches to Err.
func Sentinel(msg string) error { return &sentinel{msg} }

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return Err }
