// Package bytebuf is a stub of the real package's API.
package bytebuf

type Buffer struct{ b []byte }

func (b *Buffer) Bytes() []byte                     { return b.b }
func (b *Buffer) String() string                    { return string(b.b) }
func (b *Buffer) Len() int                          { return len(b.b) }
func (b *Buffer) Reset()                            { b.b = b.b[:0] }
func (b *Buffer) Write(p []byte) (int, error)       { b.b = append(b.b, p...); return len(p), nil }
func (b *Buffer) WriteString(s string) (int, error) { b.b = append(b.b, s...); return len(s), nil }

type Config struct{}

type Pool struct{}

func NewPool(c Config) (*Pool, error) { return &Pool{}, nil }
func (p *Pool) Get() *Buffer          { return new(Buffer) }
func (p *Pool) Put(b *Buffer)         {}
