package kgzip_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/codectest"
	"github.com/reuse-go/reuse/kgzip"
)

// TestPooledReaderForgetsPreviousStream decodes one caller's stream, then a
// corrupt one built to use state a decoder keeps from the stream before it.
// A pooled reader must reject it as a fresh one does: otherwise one caller's
// stream shapes what another caller reads.
func TestPooledReaderForgetsPreviousStream(t *testing.T) {
	secret := []byte(strings.Repeat("account 4929-1234-5678-9012 balance 1,000,000; ", 200))
	previous, err := kgzip.Compress(nil, secret, 6)
	if err != nil {
		t.Fatal(err)
	}
	stream, stale := codectest.StaleStream(t, previous, flate.NewReader)

	if _, err := freshGunzip(stream); err == nil {
		t.Fatal("setup: a fresh klauspost reader accepts the crafted stream")
	}
	if _, err := stdGunzip(stream); err == nil {
		t.Fatal("setup: compress/gzip accepts the crafted stream")
	}
	if _, err := gzpool.Decompress(nil, stream, 1<<20); !errors.Is(err, gzpool.ErrCorrupt) {
		t.Fatalf("setup: gzpool.Decompress: %v, want ErrCorrupt", err)
	}

	// Several rounds, as the race detector drops some of the pool's Puts.
	for range 20 {
		if back, err := kgzip.Decompress(nil, previous, 1<<20); err != nil || !bytes.Equal(back, secret) {
			t.Fatalf("Decompress(previous) = %d bytes, %v", len(back), err)
		}
		if out, err := kgzip.Decompress(nil, stream, 1<<20); !errors.Is(err, kgzip.ErrCorrupt) {
			t.Fatalf("Decompress after another stream accepts a stream that a fresh reader rejects: "+
				"%d bytes (%d as the stale decoder reads it), err = %v, want ErrCorrupt", len(out), len(stale), err)
		}

		r, err := kgzip.NewReader(bytes.NewReader(previous))
		if err != nil {
			t.Fatal(err)
		}
		if back, err := io.ReadAll(r); err != nil || !bytes.Equal(back, secret) {
			t.Fatalf("Reader(previous) = %d bytes, %v", len(back), err)
		}
		r.Close()
		r, err = kgzip.NewReader(bytes.NewReader(stream))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(r)
		r.Close()
		if err == nil {
			t.Fatalf("Reader after another stream accepts a stream that a fresh reader rejects: %d bytes", len(out))
		}
	}
}

// freshGunzip reads src with a new klauspost reader.
func freshGunzip(src []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
