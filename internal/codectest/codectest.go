// Package codectest holds the differential check behind every pooled codec's
// fuzz target: a pooled decoder that has just read an unrelated stream must
// behave on any input exactly as a new decoder does. It is what would have
// caught kgzip reusing klauspost decoders that remember the stream before.
package codectest

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// Limit is the Decompress limit of the check: small enough that a fuzzed
// bomb stays cheap, large enough for every seed.
const Limit = 256 << 10

// Codec is the pooled codec under test.
type Codec struct {
	// Decompress is the package's Decompress.
	Decompress func(dst, src []byte, limit int64) ([]byte, error)
	// NewReader is the package's NewReader.
	NewReader func(r io.Reader) (io.ReadCloser, error)
	// ErrTooLarge and ErrCorrupt are the package's sentinels.
	ErrTooLarge, ErrCorrupt error
	// Fresh returns a new decoder of the library the package pools, reading
	// r, having read its header; FreshName names it in failure messages.
	// The pooled decoder runs the same code, so it must return the same
	// bytes and the same errors.
	Fresh     func(r io.Reader) (io.Reader, error)
	FreshName string
}

// Text returns n bytes of compressible pseudo-text, the same for the same
// seed: it makes dynamic Huffman blocks with distance codes.
func Text(n int, seed uint64) []byte {
	words := strings.Fields("the quick brown fox jumps over a lazy dog; pooled decoders must forget " +
		"every stream they read: 0123456789 account balance secret token")
	r := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(" \n,"[r.IntN(3)])
	}
	return b.Bytes()[:n]
}

// Previous is the unrelated stream the pooled decoder reads first, as
// compress writes it.
func Previous(compress func(src []byte, level int) []byte) []byte {
	return compress(Text(20000, 1), 6)
}

// Seeds adds valid streams and mutations of them to f's corpus: truncated,
// with flipped bits, doubled, with a byte inserted or removed.
func Seeds(f *testing.F, compress func(src []byte, level int) []byte) {
	noise := make([]byte, 1000)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	inputs := [][]byte{nil, []byte("x"), []byte("hello, hello, hello, hello"), Text(3000, 2), Text(70000, 3), noise}
	for i, src := range inputs {
		for _, level := range []int{0, 1, 6, 9} {
			z := compress(src, level)
			f.Add(z)
			if level != 6 || len(z) < 3 {
				continue
			}
			f.Add(z[:len(z)/2])
			f.Add(append(z[:len(z):len(z)], z...))
			for _, at := range []int{len(z) / 3, len(z) / 2, len(z) * 2 / 3} {
				m := bytes.Clone(z)
				m[at] ^= 1 << (i % 8)
				f.Add(m)
				f.Add(append(bytes.Clone(z[:at]), z[at+1:]...))
				f.Add(append(append(bytes.Clone(z[:at]), 0xa5), z[at:]...))
			}
		}
	}
}

// Check decodes prev with the pooled decoder, then src, once with
// Decompress and once through NewReader, and compares each result with what
// a new decoder gives.
func Check(t testing.TB, c Codec, prev, src []byte) {
	t.Helper()
	checkDecompress(t, c, prev, src)
	checkReader(t, c, prev, src)
}

func checkDecompress(t testing.TB, c Codec, prev, src []byte) {
	t.Helper()
	if _, err := c.Decompress(nil, prev, Limit); err != nil {
		t.Fatalf("Decompress(previous stream): %v", err)
	}
	out, err := c.Decompress(nil, src, Limit)
	want, wantErr := read(c.Fresh, src)
	switch {
	case wantErr == nil && len(want) <= Limit:
		if err != nil || !bytes.Equal(out, want) {
			t.Fatalf("Decompress after another stream: %d bytes, %v; a new %s decoder: %d bytes, no error",
				len(out), err, c.FreshName, len(want))
		}
	case wantErr == nil:
		if !errors.Is(err, c.ErrTooLarge) {
			t.Fatalf("Decompress after another stream: %d bytes, %v; a new %s decoder: over %d bytes",
				len(out), err, c.FreshName, Limit)
		}
	default:
		if !errors.Is(err, c.ErrCorrupt) {
			t.Fatalf("Decompress after another stream: %d bytes, %v; a new %s decoder: %v",
				len(out), err, c.FreshName, wantErr)
		}
	}

}

// checkReader streams, through a reader that is not an io.ByteReader, so
// that the pooled buffer is used too.
func checkReader(t testing.TB, c Codec, prev, src []byte) {
	t.Helper()
	pr, err := c.NewReader(struct{ io.Reader }{bytes.NewReader(prev)})
	if err != nil {
		t.Fatalf("NewReader(previous stream): %v", err)
	}
	if _, err := io.Copy(io.Discard, pr); err != nil {
		t.Fatalf("reading the previous stream: %v", err)
	}
	pr.Close()
	got, gotErr := read(func(r io.Reader) (io.Reader, error) {
		return c.NewReader(struct{ io.Reader }{r})
	}, src)
	want, wantErr := read(func(r io.Reader) (io.Reader, error) {
		return c.Fresh(struct{ io.Reader }{r})
	}, src)
	// NewReader wraps the cause of a header error in ErrCorrupt.
	var header headerError
	gotHeader, wantHeader := errors.As(gotErr, &header), errors.As(wantErr, &header)
	if !bytes.Equal(got, want) || !strings.HasSuffix(text(gotErr), text(wantErr)) || gotHeader != wantHeader ||
		gotHeader && !errors.Is(gotErr, c.ErrCorrupt) {
		t.Fatalf("Reader after another stream: %d bytes, %v; a new %s decoder: %d bytes, %v",
			len(got), gotErr, c.FreshName, len(want), wantErr)
	}
}

// read decodes src with a decoder from open, up to Limit+1 bytes.
func read(open func(io.Reader) (io.Reader, error), src []byte) ([]byte, error) {
	r, err := open(bytes.NewReader(src))
	if err != nil {
		return nil, headerError{err}
	}
	out, err := io.ReadAll(io.LimitReader(r, Limit+1))
	if c, ok := r.(io.Closer); ok {
		c.Close()
	}
	return out, err
}

// headerError is an error from opening a decoder, as opposed to reading it.
type headerError struct{ err error }

func (e headerError) Error() string { return e.err.Error() }
func (e headerError) Unwrap() error { return e.err }

func text(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
