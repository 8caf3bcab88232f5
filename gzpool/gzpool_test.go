package gzpool_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse/gzpool"
	"github.com/reuse-go/reuse/internal/race"
)

func stdGzip(t testing.TB, src []byte, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(src)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func stdGunzip(src []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func TestMultistream(t *testing.T) {
	a, b := []byte(strings.Repeat("first member ", 50)), []byte("second member")
	za, err := gzpool.Compress(nil, a, 9)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := gzpool.Compress(za, b, 1) // appended: two members
	if err != nil {
		t.Fatal(err)
	}
	want := append(bytes.Clone(a), b...)
	std, err := stdGunzip(stream)
	if err != nil || !bytes.Equal(std, want) {
		t.Fatalf("compress/gzip reads %d bytes, %v; want %d", len(std), err, len(want))
	}
	got, err := gzpool.Decompress(nil, stream, int64(len(want)))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Decompress = %q, %v; want %q", got, err, want)
	}
	if _, err := gzpool.Decompress(nil, stream, int64(len(want)-1)); !errors.Is(err, gzpool.ErrTooLarge) {
		t.Errorf("Decompress with limit %d: err = %v, want ErrTooLarge", len(want)-1, err)
	}
	r, err := gzpool.NewReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
		t.Errorf("Reader read %q, %v; want %q", got, err, want)
	}
	// Trailing garbage after a member fails as it does in compress/gzip.
	bad := append(bytes.Clone(stream), "junk"...)
	_, stdErr := stdGunzip(bad)
	if _, err := gzpool.Decompress(nil, bad, 1<<20); !errors.Is(err, gzpool.ErrCorrupt) || !errors.Is(err, stdErr) {
		t.Errorf("Decompress with trailing junk: err = %v, want ErrCorrupt and %v", err, stdErr)
	}
}

// gzipCommand returns the path of the gzip command, or skips the test when it
// is missing, except under CI (CI=true), where a missing gzip fails the test.
func gzipCommand(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("no subprocesses on %s", runtime.GOOS)
	}
	path, err := exec.LookPath("gzip")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("gzip command not found under CI: %v", err)
		}
		t.Skipf("gzip command not found: %v", err)
	}
	return path
}

func run(t *testing.T, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func TestGzipCommand(t *testing.T) {
	gz := gzipCommand(t)
	inputs := map[string][]byte{
		"empty": nil,
		"200B":  []byte(strings.Repeat("interop with the gzip command ", 7))[:200],
		"1MiB":  bytes.Repeat([]byte("0123456789abcdefghij\n"), 50000),
	}
	for name, src := range inputs {
		for _, level := range []int{-2, -1, 0, 1, 9} {
			t.Run(fmt.Sprintf("ours-to-gzip/%s/level=%d", name, level), func(t *testing.T) {
				stream, err := gzpool.Compress(nil, src, level)
				if err != nil {
					t.Fatal(err)
				}
				if got := run(t, stream, gz, "-dc"); !bytes.Equal(got, src) {
					t.Errorf("gzip -dc of Compress output: %d bytes, want %d", len(got), len(src))
				}
				var b bytes.Buffer
				w, err := gzpool.NewWriter(&b, level)
				if err != nil {
					t.Fatal(err)
				}
				w.Write(src)
				w.Close()
				if got := run(t, b.Bytes(), gz, "-dc"); !bytes.Equal(got, src) {
					t.Errorf("gzip -dc of Writer output: %d bytes, want %d", len(got), len(src))
				}
			})
		}
		for _, level := range []string{"-1", "-6", "-9"} {
			t.Run(fmt.Sprintf("gzip-to-ours/%s/level=%s", name, level), func(t *testing.T) {
				stream := run(t, src, gz, "-c", "-n", level)
				got, err := gzpool.Decompress(nil, stream, int64(len(src)))
				if err != nil || !bytes.Equal(got, src) {
					t.Errorf("Decompress of gzip %s output: %d bytes, %v; want %d", level, len(got), err, len(src))
				}
			})
		}
	}
	t.Run("gzip-to-ours/file-name-and-members", func(t *testing.T) {
		// gzip records the file name and time; two files concatenated make
		// a two-member stream.
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
		os.WriteFile(a, inputs["1MiB"], 0o600)
		os.WriteFile(b, inputs["200B"], 0o600)
		stream := append(run(t, nil, gz, "-c", a), run(t, nil, gz, "-c", "-9", b)...)
		want := append(bytes.Clone(inputs["1MiB"]), inputs["200B"]...)
		got, err := gzpool.Decompress(nil, stream, int64(len(want)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Decompress of two gzip members: %d bytes, %v; want %d", len(got), err, len(want))
		}
		r, err := gzpool.NewReader(struct{ io.Reader }{bytes.NewReader(stream)})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Reader of two gzip members: %d bytes, %v; want %d", len(got), err, len(want))
		}
	})
}

var (
	bombOnce sync.Once
	bombData []byte
	bombSize int64
)

// bomb returns a gzip stream of zeros expanding past 1 GiB (64 MiB under the
// race detector and wasm, where compressing 1 GiB takes minutes), and its
// decompressed size.
func bomb(t *testing.T) ([]byte, int64) {
	bombOnce.Do(func() {
		size := int64(1<<30 + 64<<20)
		if race.Enabled || runtime.GOARCH == "wasm" {
			size = 64 << 20
		}
		var b bytes.Buffer
		w, err := gzpool.NewWriter(&b, gzip.BestSpeed)
		if err != nil {
			panic(err)
		}
		zeros := make([]byte, 1<<20)
		for n := int64(0); n < size; n += int64(len(zeros)) {
			w.Write(zeros)
		}
		if err := w.Close(); err != nil {
			panic(err)
		}
		bombData, bombSize = b.Bytes(), size
	})
	return bombData, bombSize
}

// TestBomb decompresses a gzip bomb with a 10 MiB limit: it must fail with
// ErrTooLarge quickly, and allocate no more than 32 MiB on the way, so that
// the heap never holds more than 32 MiB above what it held before.
func TestBomb(t *testing.T) {
	src, size := bomb(t)
	const limit = 10 << 20
	const heapBound = 32 << 20

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := samplePeakHeap()
	out, err := gzpool.Decompress(nil, src, limit)
	peakHeap := peak()
	runtime.ReadMemStats(&after)

	if !errors.Is(err, gzpool.ErrTooLarge) || len(out) != 0 {
		t.Fatalf("Decompress(%d-byte bomb of %d bytes, limit %d) = %d bytes, %v; want ErrTooLarge",
			len(src), size, limit, len(out), err)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("bomb: %d bytes expanding to %d; ErrTooLarge; allocated %.1f MiB; heap before %.1f MiB, sampled peak %.1f MiB",
		len(src), size, float64(allocated)/(1<<20), float64(before.HeapAlloc)/(1<<20), float64(peakHeap)/(1<<20))
	if allocated > heapBound {
		t.Errorf("Decompress allocated %d bytes, want at most %d", allocated, heapBound)
	}
	if peakHeap > before.HeapAlloc+heapBound {
		t.Errorf("heap peaked at %d bytes, %d above the %d before", peakHeap, peakHeap-before.HeapAlloc, before.HeapAlloc)
	}
	if !race.Enabled && runtime.GOARCH != "wasm" {
		// Rejecting the bomb costs about what inflating the limit's
		// worth costs, not the whole (over 100 times as much): timed
		// against compress/gzip reading limit bytes of the same stream
		// into memory, in interleaved rounds on this machine, not
		// against a clock that a loaded machine moves.
		ours, std := rejectTimes(src, limit, 7)
		t.Logf("ErrTooLarge after %v (median of 7); compress/gzip inflates the limit in %v", ours, std)
		if ours > 10*std {
			t.Errorf("Decompress took %v to reject the bomb, %.1f times the %v compress/gzip takes to inflate %d bytes of it; want at most 10",
				ours, float64(ours)/float64(std), std, limit)
		}
	}

	// Streaming through a Reader holds nothing but the caller's buffer.
	r, err := gzpool.NewReader(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(r, limit))
	if err != nil || n != limit {
		t.Fatalf("Reader: %d bytes, %v; want %d", n, err, limit)
	}
}

// rejectTimes runs, rounds times in turn, Decompress of the bomb src with
// limit and compress/gzip reading limit bytes of it into a buffer, and
// returns the median time of each.
func rejectTimes(src []byte, limit int64, rounds int) (ours, std time.Duration) {
	var a, b []time.Duration
	buf := make([]byte, limit)
	for range rounds {
		start := time.Now()
		gzpool.Decompress(nil, src, limit)
		a = append(a, time.Since(start))
		start = time.Now()
		r, err := gzip.NewReader(bytes.NewReader(src))
		if err == nil {
			io.ReadFull(r, buf)
		}
		b = append(b, time.Since(start))
	}
	slices.Sort(a)
	slices.Sort(b)
	return a[rounds/2], b[rounds/2]
}

// samplePeakHeap samples the live heap every millisecond until the returned
// function is called, which returns the highest value seen.
func samplePeakHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	read := func() {
		metrics.Read(sample)
		peak = max(peak, sample[0].Value.Uint64())
	}
	read()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		read()
		return peak
	}
}

func FuzzDecompress(f *testing.F) {
	for _, s := range []string{"", "x", "hello, hello, hello, hello", strings.Repeat("abc", 1000)} {
		z := stdGzip(f, []byte(s), 6)
		f.Add(z, uint16(len(s)))
		f.Add(z, uint16(len(s)/2))
		f.Add(z[:len(z)/2], uint16(1000))
		f.Add(append(z, z...), uint16(2*len(s)))
	}
	f.Add(stdGzip(f, make([]byte, 1<<20), 9), uint16(60000))
	f.Fuzz(func(t *testing.T, src []byte, limit16 uint16) {
		limit := int(limit16)
		out, err := gzpool.Decompress(nil, src, int64(limit))
		if len(out) > limit {
			t.Fatalf("Decompress returned %d bytes, above the limit %d", len(out), limit)
		}
		if err == nil && cap(out) > limit+limit/8+8192 {
			t.Fatalf("Decompress allocated cap %d for a limit of %d", cap(out), limit)
		}
		// Compare with compress/gzip, read with the same bound.
		var std []byte
		zr, stdErr := gzip.NewReader(bytes.NewReader(src))
		if stdErr == nil {
			std, stdErr = io.ReadAll(io.LimitReader(zr, int64(limit)+1))
		}
		switch {
		case err == nil:
			if stdErr != nil || !bytes.Equal(out, std) {
				t.Fatalf("Decompress = %d bytes; compress/gzip: %d bytes, %v", len(out), len(std), stdErr)
			}
		case errors.Is(err, gzpool.ErrTooLarge):
			if len(std) <= limit {
				t.Fatalf("Decompress: %v, but compress/gzip gives %d bytes, %v", err, len(std), stdErr)
			}
		case errors.Is(err, gzpool.ErrCorrupt):
			if stdErr == nil {
				t.Fatalf("Decompress: %v, but compress/gzip reads %d bytes without error", err, len(std))
			}
		default:
			t.Fatalf("Decompress: unexpected error %v", err)
		}
	})
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte(""), int8(0))
	f.Add([]byte("hello, hello, hello"), int8(-1))
	f.Add(bytes.Repeat([]byte("abcd"), 5000), int8(9))
	f.Fuzz(func(t *testing.T, src []byte, l int8) {
		level := (int(l)%12+12)%12 - 2 // -2 to 9
		z, err := gzpool.Compress(nil, src, level)
		if err != nil {
			t.Fatalf("Compress(level %d): %v", level, err)
		}
		if want := stdGzip(t, src, level); !bytes.Equal(z, want) {
			t.Fatalf("Compress(level %d) differs from compress/gzip", level)
		}
		got, err := gzpool.Decompress(nil, z, int64(len(src)))
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("Decompress(Compress(src)) = %d bytes, %v; want %d", len(got), err, len(src))
		}
	})
}
