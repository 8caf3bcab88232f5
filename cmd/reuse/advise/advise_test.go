package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/pprof/profile"
)

// The functions below are the test program: each allocates in a way with
// a known answer. They run in this test binary with every allocation
// sampled (MemProfileRate 1), so the profile is exact.

var (
	sinkBytes   []byte
	sinkInts    []int64
	sinkRecord  *record
	sinkCounter *int64
	sinkString  string
)

type record struct {
	ID    int64
	Name  string
	Tags  [4]string
	Score float64
}

//go:noinline
func growBuffers() {
	chunk := bytes.Repeat([]byte("x"), 512)
	for i := 0; i < 400; i++ {
		var b bytes.Buffer
		for k := 0; k < 16; k++ {
			b.Write(chunk)
		}
		sinkBytes = b.Bytes()
	}
}

//go:noinline
func gzipEach() {
	for i := 0; i < 20; i++ {
		zw := gzip.NewWriter(io.Discard)
		zw.Write([]byte("hello, hello, hello"))
		zw.Close()
	}
}

//go:noinline
func varyingSlices() {
	for i := 0; i < 2000; i++ {
		sinkInts = make([]int64, 64+i%512)
	}
}

var sinkRecords []record

// manyGoroutines starts goroutines that all wait at once, so that the
// runtime makes a new goroutine (runtime.malg) for each: memory on no stack
// of the caller's, which no pool can hand out (a new user's profile had
// advise suggest a reuse.Slices for it).
//
//go:noinline
func manyGoroutines() {
	var wg sync.WaitGroup
	release := make(chan struct{})
	for range 2000 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
		}()
	}
	close(release)
	wg.Wait()
}

// recordSlices makes slices of a struct that holds strings: a pool of them
// must clear them (Slices.Zero).
//
//go:noinline
func recordSlices() {
	for i := 0; i < 2000; i++ {
		sinkRecords = make([]record, 16+i%64)
	}
}

//go:noinline
func fixedStructs() {
	for i := 0; i < 20000; i++ {
		sinkRecord = &record{ID: int64(i)}
	}
}

//go:noinline
func loadOnce() {
	sinkBytes = make([]byte, 8<<20)
}

//go:noinline
func tinyCounters() {
	for i := 0; i < 100000; i++ {
		n := int64(i)
		sinkCounter = &n
	}
}

//go:noinline
func formatStrings() {
	for i := 0; i < 20000; i++ {
		sinkString = strings.Repeat("ab", 64+i%64)
	}
}

// tagged holds pointers (a slice), as issue 60's Item did.
type tagged struct {
	ID   int
	Tags []string
}

var sinkTagged []tagged

// twoOnOneLine makes two allocations of different kinds on one line, as
// issue 60's main.go:50 did: a []string literal of 32 B, and the growth
// of a []tagged by append, of varying sizes. Both hold pointers.
//
//go:noinline
func twoOnOneLine() {
	for i := 0; i < 300; i++ {
		var items []tagged
		for k := 0; k < 40+i%60; k++ {
			items = append(items, tagged{ID: k, Tags: []string{"a", "b"}}) // the line
		}
		sinkTagged = items
	}
}

var (
	sinkStrings []string
	sinkPtrs    []*record
)

// twoAlike makes two slices of varying sizes on one line, which the sizes
// cannot tell apart; both element types hold pointers.
//
//go:noinline
func twoAlike() {
	for i := 0; i < 2000; i++ {
		sinkStrings, sinkPtrs = make([]string, 16+i%64), make([]*record, 16+i%32) // the line
	}
}

// apiItem is the answer of jsonHandler's small JSON API: about 3 KiB of
// JSON, so that the buffer it is encoded into grows several times.
type apiItem struct {
	ID    int      `json:"id"`
	Names []string `json:"names"`
}

var apiAnswer = apiItem{ID: 7, Names: strings.Fields(strings.Repeat("alpha beta gamma delta ", 120))}

// jsonHandler is a handler of a small JSON API: it encodes its answer
// with json.NewEncoder into a bytes.Buffer of its own, which grows on
// every request (bytes.growSlice under bytes.(*Buffer).Write, called by
// json.(*Encoder).Encode), then writes it out.
//
//go:noinline
func jsonHandler() {
	for i := 0; i < 400; i++ {
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(&apiAnswer); err != nil {
			panic(err)
		}
		sinkBytes = buf.Bytes()
	}
}

var (
	profileOnce sync.Once
	profileData []byte
)

// testProfile runs the test program once per test binary, with every
// allocation sampled, and returns its heap profile.
func testProfile(t *testing.T) *profile.Profile {
	t.Helper()
	profileOnce.Do(func() { profileData = makeProfile(t) })
	p, err := profile.ParseData(profileData)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func makeProfile(t *testing.T) []byte {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	growBuffers()
	gzipEach()
	varyingSlices()
	recordSlices()
	fixedStructs()
	loadOnce()
	tinyCounters()
	formatStrings()
	jsonHandler()
	twoOnOneLine()
	twoAlike()
	manyGoroutines()
	runtime.GC() // the profile is as of the last collection
	var b bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&b, 0); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// findExact returns the site whose Function is fn.
func findExact(sites []Site, fn string) *Site {
	for i := range sites {
		if sites[i].Function == fn {
			return &sites[i]
		}
	}
	return nil
}

func find(sites []Site, fn string) *Site {
	for i := range sites {
		if strings.HasSuffix(sites[i].Function, "."+fn) {
			return &sites[i]
		}
	}
	return nil
}

// TestAdviseKnownSites checks the advice on each site of the test program,
// whose answers are known.
func TestAdviseKnownSites(t *testing.T) {
	a, err := Analyze(testProfile(t), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ fn, use, kind string }{
		{"growBuffers", "bytebuf.Pool", "bytes.Buffer growth"},
		{"gzipEach", "gzpool.Compress", "compress/gzip writer"},
		{"varyingSlices", "reuse.Slices", "make of varying sizes"},
		{"fixedStructs", "reuse.Pool[*record]", fmt.Sprintf("new object, fixed size %d B: &record{", sizeClass(unsafe.Sizeof(record{})))},
		// The memory that grows is the handler's own bytes.Buffer, which
		// json.(*Encoder).Encode writes into, not encoding/json's.
		{"jsonHandler", "bytebuf.Pool", "bytes.Buffer growth"},
	} {
		s := find(a.Pool, tt.fn)
		if s == nil {
			t.Errorf("%s: not advised to pool; skipped as %+v", tt.fn, find(a.Skip, tt.fn))
			continue
		}
		if !strings.Contains(s.Use, tt.use) || !strings.Contains(s.Kind, tt.kind) {
			t.Errorf("%s: kind %q, use %q; want %q, %q", tt.fn, s.Kind, s.Use, tt.kind, tt.use)
		}
		if s.Saving == "" || s.Bytes <= 0 {
			t.Errorf("%s: no saving: %+v", tt.fn, s)
		}
	}
	if s := find(a.Pool, "varyingSlices"); s != nil && (s.Sizes < 2 || !strings.Contains(s.Bound, "MaxCap")) {
		t.Errorf("varyingSlices: %d sizes, bound %q; want several sizes and a MaxCap", s.Sizes, s.Bound)
	}
	if s := find(a.Pool, "jsonHandler"); s != nil && (strings.Contains(s.Use, "jsonpool.Encode(w, v)") || !strings.Contains(s.Kind, "encoding/json.(*Encoder).Encode") || !strings.Contains(s.Use, "jsonpool.Append(dst, v) into a pooled slice")) {
		t.Errorf("jsonHandler: kind %q, use %q; want the handler's buffer, written by json.(*Encoder).Encode, and no jsonpool.Encode into it", s.Kind, s.Use)
	}
	// The element type, read from the source at the site's line, says
	// whether the pool must clear the elements.
	if s := find(a.Pool, "varyingSlices"); s != nil && (!strings.Contains(s.Use, "reuse.Slices[int64] (Get(n), Put)") || strings.Contains(s.Bound, "Zero")) {
		t.Errorf("varyingSlices: use %q, bound %q; want reuse.Slices[int64] without Zero", s.Use, s.Bound)
	}
	if s := find(a.Pool, "recordSlices"); s == nil || !strings.Contains(s.Use, "reuse.Slices[record] with Zero set") || !strings.Contains(s.Bound, "Zero: true, since record holds pointers") {
		t.Errorf("recordSlices: %+v; want reuse.Slices[record] with Zero", s)
	}
	if s := find(a.Pool, "fixedStructs"); s != nil && s.Sizes != 1 {
		t.Errorf("fixedStructs: %d sizes, want 1", s.Sizes)
	}
	for _, tt := range []struct{ fn, why string }{
		{"loadOnce", "one-time"},
		{"tinyCounters", "break-even"},
		{"formatStrings", "strings"},
	} {
		s := find(a.Skip, tt.fn)
		if s == nil {
			t.Errorf("%s: not rejected; advised as %+v", tt.fn, find(a.Pool, tt.fn))
			continue
		}
		if !strings.Contains(s.Why, tt.why) {
			t.Errorf("%s: rejected because %q, want %q", tt.fn, s.Why, tt.why)
		}
	}
	// The runtime's own memory is no site of the user's.
	for _, s := range a.Pool {
		if s.File == "" || strings.HasPrefix(s.Function, "runtime.") || s.Function == "(runtime)" {
			t.Errorf("advised to pool %s (%s), which the runtime allocates for itself", s.Function, s.Kind)
		}
	}
	if s := findExact(a.Skip, "(runtime)"); s == nil || !strings.Contains(s.Why, "goroutine") {
		t.Errorf("the goroutines' memory: %+v, want it under do not pool, saying goroutine", s)
	}
	// The one-time site is the heaviest in bytes, yet not advised.
	if len(a.Pool) > 0 && strings.HasSuffix(a.Pool[0].Function, ".loadOnce") {
		t.Error("the one-time allocation ranks first among the sites to pool")
	}
}

// TestAdviseOneLineTwoKinds: two allocations on one line were one site,
// advised as "reuse.Slices[string] with Zero set" over the sizes of both
// (issue 60). Now each is a site of its own, told apart by its call's
// address in the profile and matched to its expression by its sizes, and
// each names its element type and, since both hold pointers, Zero.
func TestAdviseOneLineTwoKinds(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("its sizes and the advice they lead to (32 B: pool; 16 B: do not) are a 64-bit platform's")
	}
	a, err := Analyze(testProfile(t), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var at []Site
	for _, s := range append(a.Pool, a.Skip...) {
		if strings.HasSuffix(s.Function, ".twoOnOneLine") {
			at = append(at, s)
		}
	}
	if len(at) != 2 {
		t.Fatalf("%d sites at twoOnOneLine, want 2: %+v", len(at), at)
	}
	if at[0].Line != at[1].Line {
		t.Fatalf("the sites are at lines %d and %d, want one line", at[0].Line, at[1].Line)
	}
	var literal, growth *Site
	for i := range at {
		if at[i].Sizes == 1 {
			literal = &at[i]
		} else {
			growth = &at[i]
		}
	}
	if literal == nil || growth == nil {
		t.Fatalf("want one site of one size and one of several: %+v", at)
	}
	if literal.MaxSize != 32 || !strings.Contains(literal.Use, "reuse.Slices[string] with Zero set") || !strings.Contains(literal.Kind, "[]string{\"a\", \"b\"}") {
		t.Errorf("the []string literal: size %v, kind %q, use %q; want 32 B, reuse.Slices[string] with Zero", literal.MaxSize, literal.Kind, literal.Use)
	}
	if !strings.Contains(growth.Use, "reuse.Slices[tagged] with Zero set") || !strings.Contains(growth.Bound, "Zero: true, since tagged holds pointers") || !strings.Contains(growth.Kind, "append(items") {
		t.Errorf("the []tagged growth: kind %q, use %q, bound %q; want reuse.Slices[tagged] with Zero", growth.Kind, growth.Use, growth.Bound)
	}
	for _, s := range at {
		if !strings.Contains(s.Kind, "1 of 2 allocations at this line") && !strings.Contains(s.Kind, "2 of 2 allocations at this line") {
			t.Errorf("site %s: kind %q does not say the line has two", s.Function, s.Kind)
		}
	}
}

// TestAdviseOneLineAlike: where the sizes cannot tell two allocations on
// a line apart, each site says so, and names Zero since both hold
// pointers.
func TestAdviseOneLineAlike(t *testing.T) {
	a, err := Analyze(testProfile(t), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range a.Pool {
		if !strings.HasSuffix(s.Function, ".twoAlike") {
			continue
		}
		n++
		if !strings.Contains(s.Kind, "[]string or []*record, which the profile cannot tell apart") || !strings.Contains(s.Use, "with Zero set") || !strings.Contains(s.Bound, "since each of []string or []*record holds pointers") {
			t.Errorf("twoAlike: kind %q, use %q, bound %q", s.Kind, s.Use, s.Bound)
		}
	}
	if n != 2 {
		t.Errorf("%d sites of twoAlike to pool, want 2", n)
	}
}

// TestAdviseCommand runs the command on a profile file, as text and JSON.
func TestAdviseCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "heap.pb.gz")
	var b bytes.Buffer
	if err := testProfile(t).Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Pool these", "gzpool.Compress", "bytebuf.Pool", "Do not pool these", "one-time allocation"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run([]string{"-json", file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var a Advice
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatalf("-json: %v", err)
	}
	if len(a.Pool) == 0 || len(a.Skip) == 0 {
		t.Errorf("-json: %d sites to pool, %d to skip", len(a.Pool), len(a.Skip))
	}
	for _, args := range [][]string{{}, {"a", "b"}, {filepath.Join(t.TempDir(), "missing")}} {
		if err := run(args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) = nil error, want one", args)
		}
	}
}

// TestNotHeap rejects a profile without allocation samples.
func TestNotHeap(t *testing.T) {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}}}
	if _, err := Analyze(p, DefaultOptions()); err != ErrNotHeap {
		t.Errorf("Analyze(CPU profile) = %v, want ErrNotHeap", err)
	}
}

func TestIsStd(t *testing.T) {
	for fn, want := range map[string]bool{
		"runtime.mallocgc":                  true,
		"compress/flate.(*compressor).init": true,
		"bytes.(*Buffer).grow":              true,
		"main.handle":                       false,
		"github.com/x/y.(*T).Do":            false,
		"github.com/x/y/z.f.func1":          false,
		"internal/runtime/maps.newarray":    true,
		"example.com/m.f":                   false,
	} {
		if got := isStd(fn); got != want {
			t.Errorf("isStd(%q) = %v, want %v", fn, got, want)
		}
	}
}

// TestAdviseURL reads the profile from a /debug/pprof/heap URL.
func TestAdviseURL(t *testing.T) {
	var b bytes.Buffer
	if err := testProfile(t).Write(&b); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/pprof/heap" {
			http.NotFound(w, r)
			return
		}
		w.Write(b.Bytes())
	}))
	defer srv.Close()
	var out bytes.Buffer
	if err := run([]string{srv.URL + "/debug/pprof/heap"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "gzpool.Compress") {
		t.Errorf("advice from the URL lacks the gzip site:\n%s", out.String())
	}
	if err := run([]string{srv.URL + "/nothing"}, io.Discard, io.Discard); err == nil {
		t.Error("a 404 URL: nil error")
	}
}

// sizeClass is the runtime's size class for a small object of n bytes, the
// size a heap profile records for it.
func sizeClass(n uintptr) uintptr {
	for _, c := range []uintptr{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256} {
		if n <= c {
			return c
		}
	}
	return n
}
