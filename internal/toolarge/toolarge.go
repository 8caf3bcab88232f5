// Package toolarge holds the module's one sentinel for input or output past
// a caller's limit, reuse.ErrTooLarge, where every package can reach it, and
// makes the package sentinels that wrap it.
package toolarge

import "errors"

// Err is reuse.ErrTooLarge.
var Err = errors.New("larger than the limit")

// Sentinel returns a package's own sentinel: an error whose message is msg
// and which errors.Is matches to Err.
func Sentinel(msg string) error { return &sentinel{msg} }

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return Err }
