// Package reuse is a stub of the real package's pool API.
package reuse

type Pool[T any] struct {
	New   func() T
	Reset func(T)
}

func (p *Pool[T]) Get() T  { var z T; return z }
func (p *Pool[T]) Put(x T) {}

type Slices[E any] struct{}

func NewSlices[E any](maxCap int) (*Slices[E], error) { return &Slices[E]{}, nil }
func (s *Slices[E]) Get(n int) []E                    { return make([]E, n) }
func (s *Slices[E]) Put(x []E)                        {}
