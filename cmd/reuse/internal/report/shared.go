package report

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/reuse-go/reuse"
)

// newSlices returns a Slices that keeps slices of up to maxCap elements,
// rounded down to a size class, for W1's largest size; the default keeps up
// to 1 MiB. W1 passes twice its largest n so that n's class, rounded up, is
// kept. Its misses count for the variant being built.
func newSlices[E any](maxCap int) *reuse.Slices[E] {
	s, err := reuse.NewSlices[E](maxCap)
	if err != nil {
		panic("report: " + err.Error())
	}
	return tracked(s)
}

func sizeName(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000 && n%1_000 == 0:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}

func found(fs ...*Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// lastWriter is the io.Writer of W5 and W7: it keeps a copy of the last
// write, in memory it reuses, so the report can check the output.
type lastWriter struct{ b []byte }

func (w *lastWriter) Write(p []byte) (int, error) {
	w.b = append(w.b[:0], p...)
	return len(p), nil
}

// item is the document of W7 and W8.
type item struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

var (
	w7Item  = item{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}}
	w8Doc   = []byte(`{"id":1,"name":"Jack","items":["knife","shield","herbs"]}`)
	w8Other = []byte(`{"id":2,"items":["cloak"]}`) // no name: a stale one shows
)

// w9Text is W9's input: about 200 bytes of text.
var w9Text = []byte(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 4) + "Pack my box with five dozen liquor jugs.")

// w10Input is W9's output, W10's input.
var w10Input = func() []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(w9Text); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// gunzip decompresses a whole stream; the report uses it to check W9's
// output, outside the timed loop.
func gunzip(b []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(zr)
	return string(out), err
}

// readAppend reads r to the end, appending to dst, without io.ReadAll's
// fresh slice or io.Copy's 32 KiB buffer.
func readAppend(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}
