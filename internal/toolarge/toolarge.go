// Package toolarge makes the package sentinels that wrap the module's one
// sentinel for input or output past a caller's limit, reuse.ErrTooLarge.
// The sentinel itself is declared in package reuse, so that go doc shows it
// as a plain error; this package, like all of internal/, imports no public
// package of the module, so each caller passes it in.
package toolarge

// Sentinel returns a package's own sentinel: an error whose message is msg
// and which errors.Is matches to parent, reuse.ErrTooLarge.
func Sentinel(msg string, parent error) error { return &sentinel{msg, parent} }

type sentinel struct {
	msg    string
	parent error
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.parent }
