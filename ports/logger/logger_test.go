package logger_test

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/reuse-go/reuse/ports/logger"
	"github.com/reuse-go/reuse/reusetest"
)

var fields = []struct{ k, v string }{
	{"user", "ann"},
	{"path", "/a/b?c=d&e=\"f\""},
	{"ctl", "tab\there\nnew\x01line\\"},
	{"utf8", "héllo, 世界"},
	{"bad", "\xff\xfe"},
	{"big", strings.Repeat("x", 70<<10)}, // past 64 KiB: the event is dropped, not kept
}

// TestSameAsZerolog checks the port writes, line for line, what zerolog
// v1.34.0 writes for the same fields.
func TestSameAsZerolog(t *testing.T) {
	for _, f := range fields {
		for n := range 3 { // again, from pooled events
			var want, got bytes.Buffer
			zl(&want).Info().Str(f.k, f.v).Int("n", n).Msg("done")
			logger.New(&got).Info().Str(f.k, f.v).Int("n", n).Msg("done")
			if got.String() != want.String() {
				t.Errorf("field %s: port wrote %.200q\nzerolog wrote  %.200q", f.k, got.String(), want.String())
			}
		}
	}
	var want, got, viaSync bytes.Buffer
	zl(&want).Error().Msg("")
	logger.NewZerologPool(&viaSync).Error().Str("a", "b").Msg("")
	logger.NewZerologPool(&viaSync).Error().Msg("") // a pooled event, emptied
	if s := viaSync.String(); s != `{"level":"error","a":"b"}`+"\n"+want.String() {
		t.Errorf("with zerolog's pool: %q", s)
	}
	logger.New(&got).Error().Msg("")
	if got.String() != want.String() {
		t.Errorf("empty message: port wrote %q, zerolog %q", got.String(), want.String())
	}
}

// TestConcurrent logs from many goroutines into one writer each: no line
// may carry another goroutine's fields.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			l := logger.New(&buf)
			for i := range 100 {
				buf.Reset()
				pad := strings.Repeat("p", (i*997)%(80<<10)) // some past 64 KiB
				l.Info().Int("g", g).Int("i", i).Str("pad", pad).Msg("m")
				want := `{"level":"info","g":` + itoa(g) + `,"i":` + itoa(i) + `,"pad":"` + pad + `","message":"m"}` + "\n"
				if buf.String() != want {
					t.Errorf("goroutine %d line %d: got %.100q", g, i, buf.String())
					return
				}
			}
		}()
	}
	wg.Wait()
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(dst []byte, i int) []byte {
	if i >= 10 {
		dst = appendInt(dst, i/10)
	}
	return append(dst, byte('0'+i%10))
}

// BenchmarkEvent logs one small event (three fields) with zerolog and with
// the port, to io.Discard, in one run.
func BenchmarkEvent(b *testing.B) {
	b.Run("impl=zerolog", func(b *testing.B) {
		l := zerolog.New(io.Discard)
		b.ReportAllocs()
		for b.Loop() {
			l.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request")
		}
	})
	b.Run("impl=reuse", func(b *testing.B) {
		l := logger.New(io.Discard)
		b.ReportAllocs()
		for b.Loop() {
			l.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request")
		}
	})
}

// BenchmarkEventParallel is the same from every P.
func BenchmarkEventParallel(b *testing.B) {
	b.Run("impl=zerolog", func(b *testing.B) {
		l := zerolog.New(io.Discard)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				l.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request")
			}
		})
	})
	b.Run("impl=reuse", func(b *testing.B) {
		l := logger.New(io.Discard)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				l.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request")
			}
		})
	})
}

func zl(w io.Writer) *zerolog.Logger { l := zerolog.New(w); return &l }

// BenchmarkPaired times zerolog and the port in pairs of batches run back
// to back; x-base is the port's time over zerolog's.
//
//	go test -run '^$' -bench Paired -benchtime 300x
func BenchmarkPaired(b *testing.B) {
	orig := zerolog.New(io.Discard)
	port := logger.New(io.Discard)
	reusetest.Paired(b, 1000,
		func() { orig.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request") },
		func() { port.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request") })
}

// BenchmarkPairedPool compares only the pools: the same logger with
// zerolog's sync.Pool and early return, and with the reuse.Pool whose Reset
// and Accept hooks say the same; x-base is reuse's time over sync.Pool's.
func BenchmarkPairedPool(b *testing.B) {
	orig := logger.NewZerologPool(io.Discard)
	port := logger.New(io.Discard)
	reusetest.Paired(b, 1000,
		func() { orig.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request") },
		func() { port.Info().Str("user", "ann").Str("path", "/a/b").Int("status", 200).Msg("request") })
}
