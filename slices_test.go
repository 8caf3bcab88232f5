package reuse_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
	"weak"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/internal/sizeclass"
	"github.com/reuse-go/reuse/reusetest"
)

// classCap is the capacity Get(n) must return when n's class is kept.
func classCap(n int) int { return sizeclass.Size(sizeclass.Class(n)) }

func TestSlicesGetLengthAndCapacity(t *testing.T) {
	tests := []struct {
		n, cap int
	}{
		{0, 1}, {1, 1}, {3, 3}, {9, 10}, {64, 64}, {100, 112}, {1000, 1024},
		{1025, 1280}, {64 << 10, 64 << 10}, {1 << 20, 1 << 20},
		{1<<20 + 1, 1<<20 + 1}, // above the default MaxCap: exactly n
		{3 << 20, 3 << 20},
	}
	var p reuse.Slices[byte]
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d", tt.n), func(t *testing.T) {
			for range 3 { // fresh, then (usually) from the pool
				s := p.Get(tt.n)
				if len(s) != tt.n || cap(s) != tt.cap {
					t.Fatalf("Get(%d): len = %d, cap = %d; want %d, %d", tt.n, len(s), cap(s), tt.n, tt.cap)
				}
				p.Put(s)
			}
		})
	}
}

func TestSlicesDefaultMaxCapIsOneMiBOfElements(t *testing.T) {
	tests := []struct {
		name   string
		maxCap int
		get    func(n int) (cap int, drops uint64)
	}{
		{"byte", 1 << 20, getPutDrops[byte]},
		{"int64", 128 << 10, getPutDrops[int64]},
		// 1 MiB / 24 B = 43690 elements, rounded down to the class of 40960.
		{"[3]int64", 40960, getPutDrops[[3]int64]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, drops := tt.get(tt.maxCap); c != tt.maxCap || drops != 0 {
				t.Errorf("Get(%d): cap = %d, %d drops at Put; want %d, 0", tt.maxCap, c, drops, tt.maxCap)
			}
			if c, drops := tt.get(tt.maxCap + 1); c != tt.maxCap+1 || drops != 1 {
				t.Errorf("Get(%d): cap = %d, %d drops at Put; want %d, 1", tt.maxCap+1, c, drops, tt.maxCap+1)
			}
		})
	}
}

// getPutDrops gets a slice of n elements from a new Slices and puts it back,
// and returns its capacity and the drops counted.
func getPutDrops[E any](n int) (int, uint64) {
	var p reuse.Slices[E]
	s := p.Get(n)
	p.Put(s)
	return cap(s), p.Stats().Drops
}

func TestSlicesRoundTrip(t *testing.T) {
	reusetest.KeepPooled(t)
	for _, n := range []int{0, 1, 7, 64, 100, 1000, 1 << 10, 64 << 10, 256 << 10} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			var p reuse.Slices[int32]
			s := p.Get(n)
			p.Put(s)
			// Any length of the same class gets the same array back.
			r := p.Get(sizeclass.Size(sizeclass.Class(n)))
			if unsafe.SliceData(r) != unsafe.SliceData(s) {
				t.Errorf("Get(%d) after Put of a slice of cap %d: a different array", len(r), cap(s))
			}
			if st := p.Stats(); st.News != 1 || st.Drops != 0 {
				t.Errorf("Stats() = %+v, want 1 new, 0 drops", st)
			}
		})
	}
}

// TestSlicesOddCapacitiesServeTheirClass puts slices of random capacities,
// as append or make leave them, and checks that no Get ever receives an array
// smaller than the capacity it is handed.
func TestSlicesOddCapacitiesServeTheirClass(t *testing.T) {
	p, err := reuse.NewSlices[uint16](1 << 12)
	if err != nil {
		t.Fatal(err)
	}
	// trueCap is the true capacity of every array put, by its address. The
	// map keeps them all alive, so no address is reused for another array.
	trueCap := make(map[*uint16]int)
	rng := rand.New(rand.NewPCG(1, 2))
	randCap := func() int {
		// Log-uniform over [1, 2^13): both sides of MaxCap.
		return 1 + rng.IntN(1<<rng.IntN(14))
	}
	put := func(s []uint16) {
		if _, ok := trueCap[unsafe.SliceData(s)]; !ok {
			trueCap[unsafe.SliceData(s)] = cap(s) // made by Get: cap is the array's
		}
		p.Put(s)
	}
	rounds := 20000
	if testing.Short() || runtime.GOARCH == "wasm" {
		rounds = 3000 // wasm is ten times slower at this
	}
	for range rounds {
		c := randCap()
		s := make([]uint16, rng.IntN(c+1), c)
		put(s)

		n := randCap()
		g := p.Get(n)
		if len(g) != n || cap(g) < n {
			t.Fatalf("Get(%d): len = %d, cap = %d", n, len(g), cap(g))
		}
		if tc, ok := trueCap[unsafe.SliceData(g)]; ok && tc < cap(g) {
			t.Fatalf("Get(%d) returned cap %d over an array of capacity %d, Put earlier: a class it cannot serve", n, cap(g), tc)
		}
		g[len(g)-1] = 1 // would corrupt memory if the array were too small
		put(g)
	}
}

// TestSlicesOddCapacityLandsInClassBelow checks where a slice goes, not only
// that nothing goes too high.
func TestSlicesOddCapacityLandsInClassBelow(t *testing.T) {
	reusetest.KeepPooled(t)
	tests := []struct {
		cap, class int // class size it must serve
	}{
		{1000, 896}, {1025, 1024}, {1279, 1024}, {11, 10}, {64<<10 + 5, 64 << 10},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("cap=%d", tt.cap), func(t *testing.T) {
			var p reuse.Slices[byte]
			s := make([]byte, 3, tt.cap)
			p.Put(s)
			if next := classCap(tt.class + 1); next > tt.class {
				g := p.Get(tt.class + 1)
				if unsafe.SliceData(g) == unsafe.SliceData(s) {
					t.Fatalf("Get(%d) got the array of capacity %d", tt.class+1, tt.cap)
				}
			}
			g := p.Get(tt.class)
			if unsafe.SliceData(g) != unsafe.SliceData(s) || cap(g) != tt.class {
				t.Errorf("Get(%d): cap %d, same array %v; want the array of capacity %d with cap %d",
					tt.class, cap(g), unsafe.SliceData(g) == unsafe.SliceData(s), tt.cap, tt.class)
			}
		})
	}
}

// TestSlicesFreedByGC checks that what the pool keeps, in its per-P slots as
// in its sync.Pools, is freed once collections have run and the pool is used
// again, as sync.Pool promises.
func TestSlicesFreedByGC(t *testing.T) {
	// One P, so the one shard is the one the test touches again.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p reuse.Slices[byte]
	arrays := make([]weak.Pointer[byte], 0, 8)
	for _, n := range []int{64, 1000, 64 << 10} {
		s := p.Get(n)
		arrays = append(arrays, weak.Make(unsafe.SliceData(s)))
		p.Put(s)
	}
	for i := range 100 {
		reusetest.Collect()
		p.Put(p.Get(3)) // use the pool: the P's slots are emptied
		alive := 0
		for _, w := range arrays {
			if w.Value() != nil {
				alive++
			}
		}
		if alive == 0 {
			t.Logf("all arrays freed after %d collections", i+1)
			return
		}
	}
	t.Errorf("arrays put into the pool still alive after 100 collections")
}

func TestSlicesAboveMaxCapIsFreshAndDropped(t *testing.T) {
	reusetest.KeepPooled(t)
	p, err := reuse.NewSlices[byte](1000) // rounded down to the class of 896
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{897, 1000, 5000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			before := p.Stats()
			s := p.Get(n)
			if len(s) != n || cap(s) != n {
				t.Errorf("Get(%d): len = %d, cap = %d; want %d, %d", n, len(s), cap(s), n, n)
			}
			p.Put(s)
			after := p.Stats()
			if after.News != before.News+1 || after.Drops != before.Drops+1 {
				t.Errorf("Get(%d) and Put: %d news, %d drops; want 1, 1", n, after.News-before.News, after.Drops-before.Drops)
			}
		})
	}
	s := p.Get(896)
	p.Put(s)
	if g := p.Get(896); unsafe.SliceData(g) != unsafe.SliceData(s) {
		t.Errorf("Get(896) after Put: a different array; the top class should be kept")
	}
}

func TestSlicesZero(t *testing.T) {
	reusetest.KeepPooled(t)
	for _, zero := range []bool{false, true} {
		t.Run(fmt.Sprintf("zero=%v", zero), func(t *testing.T) {
			p := reuse.Slices[int]{Zero: zero}
			s := p.Get(100)
			s = s[:cap(s)]
			for i := range s {
				s[i] = i + 1
			}
			p.Put(s)
			g := p.Get(97) // the same class as 100
			if unsafe.SliceData(g) != unsafe.SliceData(s) {
				t.Fatal("Get(97) after Put: a different array")
			}
			dirty := 0
			for _, v := range g[:cap(g)] {
				if v != 0 {
					dirty++
				}
			}
			switch {
			case zero && dirty != 0:
				t.Errorf("Zero: Get(97) has %d non-zero elements up to its capacity, want 0", dirty)
			case !zero && dirty != cap(g):
				// The documented behaviour: a pooled slice holds old data.
				t.Errorf("no Zero: Get(97) has %d of %d old elements; want all (Put must not pay for clearing)", dirty, cap(g))
			}
		})
	}
}

func TestSlicesZeroClearsDroppedSlices(t *testing.T) {
	p := reuse.Slices[byte]{Zero: true, MaxCap: 64}
	secret := []byte(strings.Repeat("secret", 100))
	p.Put(secret)
	if i := strings.IndexFunc(string(secret), func(r rune) bool { return r != 0 }); i >= 0 {
		t.Errorf("Put of a dropped slice with Zero: byte %d still %q", i, secret[i])
	}
}

func TestSlicesMisuse(t *testing.T) {
	tests := []struct {
		name string
		f    func()
		want string // panic message prefix, "" for no panic
	}{
		{"Get(-1)", func() { new(reuse.Slices[byte]).Get(-1) }, "reuse: Slices.Get: negative length -1"},
		{"Get(MinInt)", func() { new(reuse.Slices[byte]).Get(math.MinInt) }, "reuse: Slices.Get: negative length"},
		{"nil Get", func() { (*reuse.Slices[byte])(nil).Get(1) }, "reuse: Slices.Get: nil *Slices"},
		{"nil Put", func() { (*reuse.Slices[byte])(nil).Put(nil) }, "reuse: Slices.Put: nil *Slices"},
		{"nil Stats", func() { (*reuse.Slices[byte])(nil).Stats() }, "reuse: Slices.Stats: nil *Slices"},
		{"negative MaxCap field", func() { (&reuse.Slices[byte]{MaxCap: -1}).Get(1) }, "reuse: Slices: invalid Slices configuration"},
		{"Put(nil)", func() { new(reuse.Slices[byte]).Put(nil) }, ""},
		{"Put(empty)", func() { new(reuse.Slices[byte]).Put([]byte{}) }, ""},
		{"Put(nil) with Zero", func() { (&reuse.Slices[byte]{Zero: true}).Put(nil) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			func() {
				defer func() {
					if r := recover(); r != nil {
						got = fmt.Sprint(r)
						if got == "" {
							got = "(empty panic)"
						}
					}
				}()
				tt.f()
			}()
			switch {
			case tt.want == "" && got != "":
				t.Errorf("panicked: %s", got)
			case tt.want != "" && !strings.HasPrefix(got, tt.want):
				t.Errorf("panic = %q, want prefix %q", got, tt.want)
			}
		})
	}
}

func TestSlicesPutNilIsADrop(t *testing.T) {
	p := reuse.Slices[byte]{CountAll: true}
	p.Put(nil)
	if st := p.Stats(); st.Puts != 1 || st.Drops != 1 {
		t.Errorf("after Put(nil): Stats() = %+v, want 1 put, 1 drop", st)
	}
	if s := p.Get(0); s == nil || len(s) != 0 {
		t.Errorf("Get(0) after Put(nil) = %v (nil: %v), want an empty non-nil slice", s, s == nil)
	}
}

func TestSlicesZeroSizeElements(t *testing.T) {
	var p reuse.Slices[struct{}]
	s := p.Get(1000)
	if len(s) != 1000 {
		t.Fatalf("Get(1000): len = %d", len(s))
	}
	p.Put(s)
	reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get(5)) })
}

func TestNewSlices(t *testing.T) {
	tests := []struct {
		maxCap  int
		wantErr bool
	}{
		{-1, true},
		{math.MinInt, true},
		{0, false},
		{1, false},
		{1000, false},
		{sizeclass.MaxSize / 8, false},
		{sizeclass.MaxSize/8 + 1, true}, // its arrays overflow the largest class in bytes
		{math.MaxInt, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("maxCap=%d", tt.maxCap), func(t *testing.T) {
			p, err := reuse.NewSlices[int64](tt.maxCap)
			if tt.wantErr {
				if !errors.Is(err, reuse.ErrSlicesConfig) || p != nil {
					t.Errorf("NewSlices(%d) = %v, %v; want nil and an error wrapping ErrSlicesConfig", tt.maxCap, p, err)
				}
				return
			}
			if err != nil || p == nil {
				t.Fatalf("NewSlices(%d) = %v, %v", tt.maxCap, p, err)
			}
			if s := p.Get(1); len(s) != 1 {
				t.Errorf("Get(1): len = %d", len(s))
			}
		})
	}
}

func TestSlicesStats(t *testing.T) {
	for _, countAll := range []bool{false, true} {
		t.Run(fmt.Sprintf("countAll=%v", countAll), func(t *testing.T) {
			reusetest.KeepPooled(t)
			p := reuse.Slices[byte]{CountAll: countAll, MaxCap: 1024}
			if st := p.Stats(); st != (reuse.Stats{}) {
				t.Errorf("Stats() before use = %+v, want zero", st)
			}
			a, b := p.Get(10), p.Get(100) // 2 news
			p.Put(a)
			p.Put(b)
			p.Put(p.Get(10))   // a hit
			p.Put(p.Get(2000)) // a new, dropped
			p.Put(nil)         // dropped
			want := reuse.Stats{News: 3, Drops: 2}
			if countAll {
				want.Gets, want.Puts = 4, 5
			}
			st := p.Stats()
			if st != want {
				t.Errorf("Stats() = %+v, want %+v", st, want)
			}
			if countAll && st.Hits() != 1 {
				t.Errorf("Hits() = %d, want 1", st.Hits())
			}
		})
	}
}

func TestSlicesAllocations(t *testing.T) {
	if reuse.Debug {
		t.Skip("the debug build allocates its bookkeeping")
	}
	for _, n := range []int{0, 64, 1000, 1 << 10, 64 << 10, 1 << 20} {
		for _, p := range []*reuse.Slices[byte]{
			{},
			{Zero: true},
			{CountAll: true},
		} {
			t.Run(fmt.Sprintf("n=%d/zero=%v/countAll=%v", n, p.Zero, p.CountAll), func(t *testing.T) {
				reusetest.AllocsAtMost(t, 0, func() {
					s := p.Get(n)
					p.Put(s)
				})
			})
		}
	}
	t.Run("pointers", func(t *testing.T) {
		var p reuse.Slices[*int]
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get(100)) })
	})
	t.Run("one class in flight", func(t *testing.T) {
		// Beyond the one slot per P, slices go through the sync.Pools.
		var p reuse.Slices[byte]
		var held [8][]byte
		reusetest.AllocsAtMost(t, 0, func() {
			for i := range held {
				held[i] = p.Get(1000)
			}
			for i := range held {
				p.Put(held[i])
			}
		})
	})
	t.Run("several in flight", func(t *testing.T) {
		var p reuse.Slices[float64]
		var held [8][]float64
		reusetest.AllocsAtMost(t, 0, func() {
			for i := range held {
				held[i] = p.Get(100 * i)
			}
			for i := range held {
				p.Put(held[i])
			}
		})
	})
}

// TestSlicesHammer gets, fills, checks and puts slices from many goroutines
// at once. Run it with -race -cpu=1,4: two goroutines holding one array at
// once is a data race the detector sees, and a pattern overwritten by another
// goroutine is caught here.
func TestSlicesHammer(t *testing.T) {
	for _, zero := range []bool{false, true} {
		t.Run(fmt.Sprintf("zero=%v", zero), func(t *testing.T) {
			p := reuse.Slices[uint32]{MaxCap: 4096, Zero: zero, CountAll: true}
			const goroutines = 8
			rounds := 3000
			if testing.Short() || race.Enabled {
				rounds = 500
			}
			var wg sync.WaitGroup
			errs := make(chan string, goroutines)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(g), 7))
					for i := range rounds {
						n := rng.IntN(5000) // some above MaxCap
						s := p.Get(n)
						if len(s) != n || cap(s) < n {
							errs <- fmt.Sprintf("Get(%d): len = %d, cap = %d", n, len(s), cap(s))
							return
						}
						if zero {
							for j, v := range s[:cap(s)] {
								if v != 0 {
									errs <- fmt.Sprintf("Zero: Get(%d)[%d] = %#x, want 0", n, j, v)
									return
								}
							}
						}
						mark := uint32(g)<<24 | uint32(i)
						for j := range s {
							s[j] = mark
						}
						runtime.Gosched()
						for j, v := range s {
							if v != mark {
								errs <- fmt.Sprintf("Get(%d)[%d] = %#x, want %#x: another goroutine has the array", n, j, v, mark)
								return
							}
						}
						// Put back what append may have grown, sometimes.
						if i%7 == 0 {
							s = append(s, mark)
						}
						p.Put(s)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			st := p.Stats()
			if want := uint64(goroutines * rounds); st.Gets != want || st.Puts != want {
				t.Errorf("Stats() = %+v, want %d gets and puts", st, want)
			}
		})
	}
}

// slicesSizes are the sizes the Slices benchmarks use, in bytes.
var slicesSizes = []struct {
	name string
	n    int
}{{"64B", 64}, {"1KiB", 1 << 10}, {"64KiB", 64 << 10}}

var slicesSink byte

// BenchmarkSlices compares one Get, a write at both ends and a Put of a
// []byte with the baselines beside it: make, and a sync.Pool of *[]byte of
// that one size, as usually written. impl=reuse-zero sets Zero, and shows
// what clearing on every Put costs; impl=reuse-countall sets CountAll.
//
//	go test -run '^$' -bench Slices -count 6 > slices.txt
//	benchstat -col /impl slices.txt
func BenchmarkSlices(b *testing.B) {
	for _, sz := range slicesSizes {
		n := sz.n
		for _, mode := range []string{"serial", "parallel"} {
			par := mode == "parallel"
			name := func(impl string) string { return "size=" + sz.name + "/mode=" + mode + "/impl=" + impl }

			b.Run(name("make"), func(b *testing.B) {
				getPut(b, par, func() {
					s := make([]byte, n)
					s[0], s[n-1] = 1, 2
					slicesSink = s[n/2]
				})
			})
			b.Run(name("syncpool"), func(b *testing.B) {
				p := sync.Pool{New: func() any { s := make([]byte, n); return &s }}
				getPut(b, par, func() {
					ps := p.Get().(*[]byte)
					s := *ps
					s[0], s[n-1] = 1, 2
					p.Put(ps)
				})
			})
			for _, impl := range []string{"reuse", "reuse-zero", "reuse-countall"} {
				b.Run(name(impl), func(b *testing.B) {
					p := reuse.Slices[byte]{Zero: impl == "reuse-zero", CountAll: impl == "reuse-countall"}
					getPut(b, par, func() {
						s := p.Get(n)
						s[0], s[n-1] = 1, 2
						p.Put(s)
					})
				})
			}
		}
	}
}

// TestSlicesLargerClassServes: when n's class has nothing, Get takes a
// pooled slice of a larger class below twice n's class size, and nothing
// larger.
func TestSlicesLargerClassServes(t *testing.T) {
	reusetest.KeepPooled(t)
	var p reuse.Slices[byte]
	a := make([]byte, 128)    // class 128, in the pool of its class...
	b := make([]byte, 64)     // ...once b and c take the per-P slot's
	c := make([]byte, 48)     // two places
	huge := make([]byte, 224) // twice 112: too large to serve 100
	p.Put(huge)
	p.Put(a)
	p.Put(b)
	p.Put(c)
	g := p.Get(100) // class 112: empty
	if unsafe.SliceData(g) != unsafe.SliceData(a) || len(g) != 100 || cap(g) != 128 {
		t.Errorf("Get(100) with only classes 64, 128 and 224 pooled: len %d, cap %d, a's array %v; want a, len 100, cap 128",
			len(g), cap(g), unsafe.SliceData(g) == unsafe.SliceData(a))
	}
	g2 := p.Get(100) // 112 and 128 empty now; 224 is too large
	if unsafe.SliceData(g2) == unsafe.SliceData(huge) || cap(g2) != 112 {
		t.Errorf("second Get(100): cap %d, huge's array %v; want a new slice of cap 112",
			cap(g2), unsafe.SliceData(g2) == unsafe.SliceData(huge))
	}
	p.Put(g)
	p.Put(g2)
}
