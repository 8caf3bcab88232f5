//go:build reusedebug

package debug

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// catch routes reports to a slice until t ends.
func catch(t *testing.T) *[]Report {
	t.Helper()
	var got []Report
	prev := Swap(&Handler{F: func(r Report) { got = append(got, r) }})
	t.Cleanup(func() { Swap(prev) })
	return &got
}

type fakePool struct{ _ [8]byte }

func TestPoisonPattern(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 255, 256, 257, 1000} {
		mem := make([]byte, n)
		fill(mem)
		for i := range mem {
			if mem[i] != Pattern[i%4] {
				t.Fatalf("fill(%d bytes): byte %d = %#x, want %#x", n, i, mem[i], Pattern[i%4])
			}
		}
		if i := poisoned(mem); i != -1 {
			t.Errorf("poisoned(fill(%d bytes)) = %d, want -1", n, i)
		}
		for _, at := range []int{0, n / 2, n - 1} {
			if at < 0 || at >= n {
				continue
			}
			mem[at] ^= 0xFF
			if i := poisoned(mem); i != at {
				t.Errorf("poisoned(%d bytes, byte %d changed) = %d, want %d", n, at, i, at)
			}
			mem[at] ^= 0xFF
		}
	}
}

func TestSliceModes(t *testing.T) {
	type numbers struct {
		_ int32
		_ [2]float64
	}
	type withBool struct {
		_ int
		_ bool
	}
	for _, tc := range []struct {
		name string
		mode Mode
		n    int // memory bytes for cap 4
		f    func() (unsafe.Pointer, []byte, Mode)
	}{
		{"[]byte", Poison, 4, func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]byte, 1, 4)) }},
		{"[]float64", Poison, 32, func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]float64, 0, 4)) }},
		{"[]struct{int32,[2]float64}", Poison, 4 * int(unsafe.Sizeof(numbers{})), func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]numbers, 0, 4)) }},
		{"[]bool", Snapshot, 4, func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]bool, 0, 4)) }},
		{"[]*int", Snapshot, 4 * int(unsafe.Sizeof(uintptr(0))), func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]*int, 0, 4)) }},
		{"[]string", Snapshot, 4 * int(unsafe.Sizeof("")), func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]string, 0, 4)) }},
		{"[]struct{int,bool}", Snapshot, 4 * int(unsafe.Sizeof(withBool{})), func() (unsafe.Pointer, []byte, Mode) { return Slice(make([]withBool, 0, 4)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, mem, mode := tc.f()
			if obj == nil || mode != tc.mode || len(mem) != tc.n {
				t.Errorf("Slice: obj %v, %d bytes, mode %d; want non-nil, %d bytes, mode %d", obj, len(mem), mode, tc.n, tc.mode)
			}
		})
	}
	if obj, _, _ := Slice(make([]byte, 0)); obj != nil {
		t.Error("Slice(zero capacity) has an identity, want nil")
	}
	if obj, _, _ := Slice(make([]struct{}, 4)); obj != nil {
		t.Error("Slice([]struct{}) has an identity, want nil")
	}
}

func TestValueKinds(t *testing.T) {
	type s struct{ a, b int64 }
	p := &s{}
	if obj, mem, leaks := Value(&p); obj != unsafe.Pointer(p) || len(mem) != 16 || !leaks {
		t.Errorf("Value(*s) = %v, %d bytes, leaks %v; want the pointer, 16 bytes, true", obj, len(mem), leaks)
	}
	var nilp *s
	if obj, _, _ := Value(&nilp); obj != nil {
		t.Error("Value(nil pointer) has an identity")
	}
	z := &struct{}{}
	if obj, _, _ := Value(&z); obj != nil {
		t.Error("Value(*struct{}) has an identity: zero-size objects share an address")
	}
	m := map[int]int{}
	if obj, mem, leaks := Value(&m); obj == nil || mem != nil || !leaks {
		t.Errorf("Value(map) = %v, %d bytes, leaks %v; want an identity, no memory, true", obj, len(mem), leaks)
	}
	b := make([]int32, 2, 10)
	if obj, mem, leaks := Value(&b); obj != unsafe.Pointer(&b[0]) || len(mem) != 40 || leaks {
		t.Errorf("Value([]int32 cap 10) = %v, %d bytes, leaks %v; want &b[0], 40 bytes, false", obj, len(mem), leaks)
	}
	v := s{1, 2}
	if obj, _, _ := Value(&v); obj != nil {
		t.Error("Value(struct value) has an identity")
	}
}

func TestSealCheck(t *testing.T) {
	pool := &fakePool{}
	for _, tc := range []struct {
		name   string
		mode   Mode
		size   int
		write  func(mem []byte) // between Seal and Check
		shrink int              // Check this many bytes fewer
		want   string           // "" for no report
	}{
		{"poison/untouched", Poison, 100, nil, 0, ""},
		{"poison/written", Poison, 100, func(m []byte) { m[5] = 'x' }, 0, "byte 5 of 100 was written after Put (poison 0xad overwritten with 0x78)"},
		{"poison/prefix", Poison, 100, nil, 36, ""},
		{"poison/written-beyond-prefix", Poison, 100, func(m []byte) { m[90] = 'x' }, 36, ""},
		{"snapshot/untouched", Snapshot, 100, nil, 0, ""},
		{"snapshot/written", Snapshot, 100, func(m []byte) { m[7] = 'x' }, 0, "byte 7 of its 100 bytes changed after Put (0x07 at Put, 0x78 now)"},
		{"snapshot/hashed-untouched", Snapshot, 100 << 10, nil, 0, ""},
		{"snapshot/hashed-written", Snapshot, 100 << 10, func(m []byte) { m[70000]++ }, 0, "its 102400 bytes changed after Put"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := catch(t)
			mem := make([]byte, tc.size)
			for i := range mem {
				mem[i] = byte(i)
			}
			obj := unsafe.Pointer(&mem[0])
			if !Put(pool, obj) {
				t.Fatal("Put of a fresh object returned false")
			}
			Seal(obj, mem, tc.mode)
			if tc.mode == Poison && poisoned(mem) != -1 {
				t.Fatal("Seal(Poison) left memory a stale reader would not see as poison")
			}
			if tc.write != nil {
				tc.write(mem)
			}
			Got(pool, obj, false)
			Check(pool, obj, mem[:len(mem)-tc.shrink], tc.mode)
			switch {
			case tc.want == "" && len(*got) != 0:
				t.Errorf("reports %v, want none", *got)
			case tc.want != "" && (len(*got) != 1 || (*got)[0].Kind != UseAfterPut || !strings.Contains((*got)[0].Detail, tc.want)):
				t.Errorf("reports %v, want one use after Put saying %q", *got, tc.want)
			}
		})
	}
}

func TestCheckReplacedMemory(t *testing.T) {
	got := catch(t)
	pool := &fakePool{}
	type buf struct{ b []byte }
	x := &buf{b: make([]byte, 0, 64)}
	obj := unsafe.Pointer(x)
	Put(pool, obj)
	Seal(obj, x.b[:cap(x.b)], Poison)
	x.b = append(x.b, make([]byte, 100)...) // grows after Put: a new array
	Got(pool, obj, true)
	Check(pool, obj, x.b[:cap(x.b)], Poison)
	if len(*got) != 1 || !strings.Contains((*got)[0].Detail, "its memory was replaced after Put (64 bytes at") {
		t.Errorf("reports %v, want one saying the memory was replaced", *got)
	}
	Put(pool, obj)
}

// TestInternal: the frames a report leaves out before the caller's are
// those of the module's library packages, told by package path and file,
// not by function name.
func TestInternal(t *testing.T) {
	for _, tc := range []struct {
		fn, file string
		want     bool
	}{
		{"github.com/reuse-go/reuse.(*Pool[...]).Get", "/m/pool.go", true},
		{"github.com/reuse-go/reuse.putAllowed[...]", "/m/pool.go", true},
		{"github.com/reuse-go/reuse/bytebuf.(*Pool).putSlow", "/m/bytebuf/pool.go", true},
		{"github.com/reuse-go/reuse/codec.getWriter", "/m/codec/codec.go", true},
		{"github.com/reuse-go/reuse/internal/debug.Put", "/m/internal/debug/track.go", true},
		{"github.com/reuse-go/reuse/httpcompress/khttp.openZstd", "/m/httpcompress/khttp/khttp.go", true},
		// A white-box test in a package of the module is the caller.
		{"github.com/reuse-go/reuse/bytebuf.TestDebug", "/m/bytebuf/debug_test.go", false},
		{"github.com/reuse-go/reuse.TestPool.func1", "/m/pool_internal_test.go", false},
		{"github.com/reuse-go/reuse_test.TestX", "/m/pool_test.go", false},
		{"github.com/reuse-go/reuse/bytebuf_test.TestX.func1", "", false},
		{"github.com/reuse-go/reusefork.F", "/f/f.go", false},
		{"main.main", "/u/main.go", false},
		// The module's programs use the pools as any program does.
		{"github.com/reuse-go/reuse/examples/server.(*h).ServeHTTP", "/m/examples/server/main.go", false},
		{"github.com/reuse-go/reuse/cmd/reuse/internal/report.w5", "/m/cmd/reuse/internal/report/w5.go", false},
		{"github.com/reuse-go/reuse/ports/logger.(*Logger).Info", "/m/ports/logger/logger.go", false},
	} {
		if got := internal(runtime.Frame{Function: tc.fn, File: tc.file}); got != tc.want {
			t.Errorf("internal(%s in %s) = %v, want %v", tc.fn, tc.file, got, tc.want)
		}
	}
}

func TestAPIName(t *testing.T) {
	for fn, want := range map[string]string{
		"github.com/reuse-go/reuse/bytebuf.(*Buffer).Write":     "bytebuf: Buffer.Write",
		"github.com/reuse-go/reuse/bytebuf.(*Buffer).AppendInt": "bytebuf: Buffer.AppendInt",
		"github.com/reuse-go/reuse.(*Pool[...]).Put":            "reuse: Pool.Put",
		"github.com/reuse-go/reuse/gzpool.NewWriter":            "gzpool: NewWriter",
		"": "",
	} {
		if got := apiName(fn); got != want {
			t.Errorf("apiName(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{DoublePut: "double Put", UseAfterPut: "use after Put", Leak: "leak", 0: "unknown misuse"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// TestReportsStartInAWhiteBoxTest: a test in a package of the module is the
// caller, though its functions are named like the package's own: its frames
// are kept, and its line is the site. They used to be left out as the
// module's, and the site was the testing package's line.
func TestReportsStartInAWhiteBoxTest(t *testing.T) {
	got := catch(t)
	pool, x := new(fakePool), new([16]byte)
	Put(pool, unsafe.Pointer(x))
	_, file, line, _ := runtime.Caller(0)
	Put(pool, unsafe.Pointer(x)) // line+1
	if len(*got) != 1 {
		t.Fatalf("reports %v, want one double Put", *got)
	}
	r := (*got)[0]
	if want := file + ":" + strconv.Itoa(line+1); r.Site != want || !strings.Contains(r.Detail, "put again at "+want) {
		t.Errorf("Site %q, Detail %q: want the site %s", r.Site, r.Detail, want)
	}
	if want := "second Put:\n\tgithub.com/reuse-go/reuse/internal/debug.TestReportsStartInAWhiteBoxTest\n"; !strings.HasPrefix(r.Stacks, want) {
		t.Errorf("Stacks start %q, want %q", r.Stacks[:min(len(r.Stacks), 200)], want)
	}
}
