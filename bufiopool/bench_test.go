package bufiopool_test

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/bufiopool"
	"github.com/reuse-go/reuse/internal/cputime"
	"github.com/reuse-go/reuse/reusetest"
)

var sinkN int

// input is what each reader iteration reads: a small request, ten lines.
var input = strings.Repeat("GET /index.html HTTP/1.1\r\n", 10)

// BenchmarkReader reads a fresh ~260-byte input line by line per iteration
// through a buffered reader: one from the pool, or one allocated by
// bufio.NewReaderSize (impl=bufio, the baseline).
func BenchmarkReader(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		for _, impl := range []string{"bufio", "bufiopool"} {
			b.Run(fmt.Sprintf("size=%dKiB/impl=%s", size>>10, impl), func(b *testing.B) {
				var src strings.Reader
				b.SetBytes(int64(len(input)))
				defer reusetest.ReportAllocs(b)()
				defer cputime.Report(b)()
				for b.Loop() {
					src.Reset(input)
					var br *bufio.Reader
					var r *bufiopool.Reader
					if impl == "bufiopool" {
						r = bufiopool.NewReader(&src, size)
						br = r.Reader
					} else {
						br = bufio.NewReaderSize(&src, size)
					}
					n := 0
					for {
						line, err := br.ReadSlice('\n')
						n += len(line)
						if err != nil {
							break
						}
					}
					if n != len(input) {
						b.Fatalf("read %d bytes, want %d", n, len(input))
					}
					sinkN = n
					if r != nil {
						r.Close()
					}
				}
			})
		}
	}
}

// BenchmarkWriter writes ten lines and flushes per iteration, through a
// pooled writer or one from bufio.NewWriterSize (impl=bufio, the baseline).
func BenchmarkWriter(b *testing.B) {
	line := "key=value level=info msg=\"request served\"\n"
	for _, size := range []int{4 << 10, 64 << 10} {
		for _, impl := range []string{"bufio", "bufiopool"} {
			b.Run(fmt.Sprintf("size=%dKiB/impl=%s", size>>10, impl), func(b *testing.B) {
				b.SetBytes(int64(10 * len(line)))
				defer reusetest.ReportAllocs(b)()
				defer cputime.Report(b)()
				for b.Loop() {
					if impl == "bufiopool" {
						w := bufiopool.NewWriter(io.Discard, size)
						for range 10 {
							w.WriteString(line)
						}
						if err := w.Close(); err != nil {
							b.Fatal(err)
						}
						continue
					}
					w := bufio.NewWriterSize(io.Discard, size)
					for range 10 {
						w.WriteString(line)
					}
					if err := w.Flush(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPaired gives the same comparisons as stable ratios on a loaded
// machine (reusetest.Paired): x-base is bufiopool's time over the baseline's
// (below 1: bufiopool is faster). The median leaves out the pairs in which
// the collector ran, which understates the baseline's cost.
func BenchmarkPaired(b *testing.B) {
	var src strings.Reader
	line := "key=value level=info msg=\"request served\"\n"
	readAll := func(br *bufio.Reader) {
		for {
			l, err := br.ReadSlice('\n')
			sinkN += len(l)
			if err != nil {
				return
			}
		}
	}
	for _, size := range []int{4 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("op=read/size=%dKiB/base=bufio.NewReaderSize", size>>10), func(b *testing.B) {
			paired(b, func() {
				src.Reset(input)
				readAll(bufio.NewReaderSize(&src, size))
			}, func() {
				src.Reset(input)
				r := bufiopool.NewReader(&src, size)
				readAll(r.Reader)
				r.Close()
			})
		})
		b.Run(fmt.Sprintf("op=write/size=%dKiB/base=bufio.NewWriterSize", size>>10), func(b *testing.B) {
			paired(b, func() {
				w := bufio.NewWriterSize(io.Discard, size)
				for range 10 {
					w.WriteString(line)
				}
				w.Flush()
			}, func() {
				w := bufiopool.NewWriter(io.Discard, size)
				for range 10 {
					w.WriteString(line)
				}
				w.Close()
			})
		})
	}
}

func paired(b *testing.B, base, pool func()) { reusetest.Paired(b, 50, base, pool) }
