package khttp_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/reuse-go/reuse/codec"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/race"
)

// apiJSON returns about n bytes of JSON shaped like an API response: the
// benchmarks module's jsonBody.
func apiJSON(n int) []byte {
	type item struct {
		ID      int      `json:"id"`
		Name    string   `json:"name"`
		Email   string   `json:"email"`
		Active  bool     `json:"active"`
		Score   float64  `json:"score"`
		Tags    []string `json:"tags"`
		Created string   `json:"created"`
	}
	var items []item
	var out []byte
	for i := 0; len(out) < n; i++ {
		items = append(items, item{
			ID: 1000 + i*7, Name: "user" + strconv.Itoa(i*31%997), Email: "user" + strconv.Itoa(i) + "@example.com",
			Active: i%3 != 0, Score: float64(i*37%1000) / 10, Tags: []string{"alpha", "beta", "t" + strconv.Itoa(i%13)},
			Created: time.Unix(1.7e9+int64(i)*3607, 0).UTC().Format(time.RFC3339),
		})
		out, _ = json.Marshal(items)
	}
	return out[: n-1 : n-1]
}

// corpus is the first 200 KiB of each testdata file (gzipped there; see
// testdata/README.md for the sources) and 200 KiB of apiJSON.
func corpus(t testing.TB) []struct {
	name string
	b    []byte
} {
	t.Helper()
	out := []struct {
		name string
		b    []byte
	}{{"api.json", apiJSON(200 << 10)}}
	for _, f := range []string{"fhir.json", "spec.html", "opticks.txt", "dpkg.log"} {
		gz, err := os.ReadFile("testdata/" + f + ".gz")
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name string
			b    []byte
		}{f, b})
	}
	return out
}

// compressedSize is the size of b compressed in one Write by e at level.
func compressedSize(t *testing.T, e httpcompress.Encoding, level int, b []byte) int {
	t.Helper()
	var buf bytes.Buffer
	var w codec.Writer
	if err := e.Open(&w, &buf, level, 0); err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

// TestCorpusSizes holds the figures in the package documentation and in
// benchmarks/results/2026-11-26-httpcompress.md to the encoders of
// go.mod (klauspost/compress v1.18.0) and the Go release that runs it:
// each body's compressed size at the default level (Config.Level 0) for
// httpcompress.Gzip (compress/gzip, level 6), khttp.Gzip (klauspost, level
// 5) and khttp.Zstd (SpeedDefault), and the claim the preference order
// rests on: at the default level khttp's zstd is smaller than its gzip, or
// at most 2% larger, on every body.
func TestCorpusSizes(t *testing.T) {
	if race.Enabled {
		t.Skip("the sizes do not depend on the race detector, which makes this 20 times slower")
	}
	want := map[string][3]int{ // stdlib gzip, klauspost gzip, zstd
		"api.json":    {28544, 28556, 27814},
		"fhir.json":   {14661, 16860, 14664},
		"spec.html":   {55672, 58702, 59333},
		"opticks.txt": {63248, 66348, 66163},
		"dpkg.log":    {18762, 19490, 19048},
	}
	for _, f := range corpus(t) {
		got := [3]int{
			compressedSize(t, httpcompress.Gzip(), -1, f.b),
			compressedSize(t, khttp.Gzip(), -1, f.b),
			compressedSize(t, khttp.Zstd(), -1, f.b),
		}
		t.Logf("%-12s %7d B: compress/gzip %6d, klauspost gzip %6d (%+.1f%%), zstd %6d (%+.1f%% vs compress/gzip, %+.1f%% vs klauspost gzip)",
			f.name, len(f.b), got[0], got[1], pct(got[1], got[0]), got[2], pct(got[2], got[0]), pct(got[2], got[1]))
		if got != want[f.name] {
			t.Errorf("%s: sizes %v, want %v (update the documented figures if an encoder changed)", f.name, got, want[f.name])
		}
		if float64(got[2]) > 1.02*float64(got[1]) {
			t.Errorf("%s: zstd %d bytes, over 2%% larger than klauspost gzip's %d: zstd first no longer serves khttp's users", f.name, got[2], got[1])
		}
	}
}

func pct(a, b int) float64 { return 100 * (float64(a) - float64(b)) / float64(b) }

// BenchmarkCorpus: compression speed of each Encoding at the default level
// on the corpus, one Write per body, as a handler that writes a whole body
// does.
func BenchmarkCorpus(b *testing.B) {
	encs := []struct {
		name string
		e    httpcompress.Encoding
	}{{"gzip-stdlib", httpcompress.Gzip()}, {"gzip-klauspost", khttp.Gzip()}, {"zstd", khttp.Zstd()}}
	for _, f := range corpus(b) {
		for _, e := range encs {
			b.Run("body="+f.name+"/enc="+e.name, func(b *testing.B) {
				b.SetBytes(int64(len(f.b)))
				b.ReportAllocs()
				var w codec.Writer
				for b.Loop() {
					e.e.Open(&w, io.Discard, -1, 0)
					w.Write(f.b)
					w.Close()
				}
			})
		}
	}
}
