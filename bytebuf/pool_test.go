package bytebuf_test

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/internal/sizeclass"
	"github.com/reuse-go/reuse/reusetest"
)

var payload = bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB

// use gets a Buffer, writes n bytes into it in chunks of at most 4 KiB, and
// puts it back.
func use(p *bytebuf.Pool, n int) {
	b := p.Get()
	write(b, n)
	p.Put(b)
}

// oneProc runs the rest of the test at GOMAXPROCS 1, for tests of what the
// calibration makes of one goroutine's lengths. Above 1, the sampler's
// cells (picked by stack address) reach their calibrations at other points
// of the same lengths, and the plan varies from run to run: over 800 runs
// at -cpu 4 to 16, TestGrowthOfPieces saw 1.34 growths per Buffer in 95%
// and up to 1.63 in the rest (at capacity/written 1.29, tighter), and the
// mix of TestCapacityOnUntunedShapes up to 1.485 (1.38 to 1.41 at 1). The
// benchmarks measure that spread on the workloads; these tests hold the
// plan to its figures on a fixed sequence of calibrations.
func oneProc(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

func write(b *bytebuf.Buffer, n int) {
	for n > 0 {
		k := min(n, 4096)
		b.Write(payload[:k])
		n -= k
	}
}

// classDistance is how many size classes apart a and b are.
func classDistance(a, b int) int {
	d := sizeclass.Class(a) - sizeclass.Class(b)
	if d < 0 {
		return -d
	}
	return d
}

// w11 returns the length of one request of the mixed workload: 95% about
// 1 KiB, 5% about 1 MiB.
func w11(r *rand.Rand) int {
	if r.IntN(100) < 5 {
		return 960<<10 + r.IntN(128<<10)
	}
	return 896 + r.IntN(256)
}

func TestPoolCalibrationConverges(t *testing.T) {
	tests := []struct {
		name   string
		length func(r *rand.Rand) int
		mode   int // the most common length
	}{
		{"fixed=100B", func(*rand.Rand) int { return 100 }, 100},
		{"fixed=4KiB", func(*rand.Rand) int { return 4096 }, 4096},
		{"fixed=64KiB", func(*rand.Rand) int { return 64 << 10 }, 64 << 10},
		{"spread=1000..1100", func(r *rand.Rand) int { return 1000 + r.IntN(100) }, 1050},
		{"80%=3000,20%=any", func(r *rand.Rand) int {
			if r.IntN(5) > 0 {
				return 3000
			}
			return r.IntN(10000)
		}, 3000},
		{"W11", w11, 1024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p bytebuf.Pool
			r := rand.New(rand.NewPCG(1, 2))
			for range 20000 {
				use(&p, tt.length(r))
			}
			s := p.Stats()
			if s.Calibrations == 0 {
				t.Fatalf("no calibration after 20000 Puts: %+v", s)
			}
			if d := classDistance(s.DefaultCap, tt.mode); d > 1 {
				t.Errorf("DefaultCap = %d, %d classes from the most common length %d, want at most 1", s.DefaultCap, d, tt.mode)
			}
			if s.DefaultCap < tt.mode*9/10 {
				t.Errorf("DefaultCap = %d, want room for most of the common length %d", s.DefaultCap, tt.mode)
			}
		})
	}
}

func TestPoolFollowsShift(t *testing.T) {
	var p bytebuf.Pool
	phases := []int{1000, 16000, 300, 1000}
	for _, n := range phases {
		for range 20000 {
			use(&p, n)
		}
		if s := p.Stats(); classDistance(s.DefaultCap, n) > 1 {
			t.Errorf("after 20000 Puts of %d bytes: DefaultCap = %d, want within one class of %d", n, s.DefaultCap, n)
		}
	}
}

// TestPoolKeepsLargeCommon runs the mixed workload with 32 Buffers in
// flight, and checks that once calibrated the large Buffers are reused, not
// reallocated: steady-state allocations stay near zero.
func TestPoolKeepsLargeCommon(t *testing.T) {
	reusetest.IgnoreLeaks(t) // drops Buffers on purpose; the debug build would report them
	reusetest.KeepPooled(t)
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(3, 4))
	var inFlight [32]*bytebuf.Buffer
	for i := range inFlight {
		inFlight[i] = p.Get()
	}
	k := 0
	step := func() {
		k = (k + 1) % len(inFlight)
		b := inFlight[k]
		write(b, w11(r))
		p.Put(b)
		inFlight[k] = p.Get()
	}
	for range 20000 {
		step()
	}
	// One op in twenty is large; reallocating them would be 0.05 per op.
	a := reusetest.AllocsAtMost(t, 0.005, step)
	t.Logf("W11 steady state: %v; stats %+v", a, p.Stats())
	s := p.Stats()
	if s.KeepCap < 1<<20 {
		t.Errorf("KeepCap = %d, want the ~1 MiB class kept", s.KeepCap)
	}
	if s.RetainedBytes > bytebuf.DefaultBudget {
		t.Errorf("RetainedBytes = %d, above the default budget %d", s.RetainedBytes, bytebuf.DefaultBudget)
	}
}

// TestPoolRareGiantReleased: a rare giant does not move the calibration, and
// the arrays it grew through, though kept for the Buffers that may grow as
// far, are let go within two collections of a pool that stays in use for
// small Buffers. (Until the giant arrays were kept at all, this test asserted
// that Put dropped them; the distributions suite showed the cost of that
// rule on heavy-tailed workloads.)
func TestPoolRareGiantReleased(t *testing.T) {
	reusetest.KeepPooled(t)
	var p bytebuf.Pool
	for range 20000 {
		use(&p, 1000)
	}
	before := p.Stats()
	giant := p.Get()
	write(giant, 3<<20)
	p.Put(giant)
	after := p.Stats()
	if after.RetainedBytes > bytebuf.DefaultBudget {
		t.Errorf("RetainedBytes = %d after a rare giant, above the budget", after.RetainedBytes)
	}
	if after.KeepCap >= 3<<20 || after.DefaultCap != before.DefaultCap {
		t.Errorf("after a rare giant: KeepCap %d, DefaultCap %d -> %d; want KeepCap below the giant, DefaultCap unchanged",
			after.KeepCap, before.DefaultCap, after.DefaultCap)
	}
	// Two collections, with the pool in use before each, so that what is
	// released is released by the aging of a pool in use, not by the rule
	// for idle pools.
	for range 2 {
		for range 100 {
			use(&p, 1000)
		}
		reusetest.Collect()
	}
	for range 100 {
		use(&p, 1000)
	}
	if s := p.Stats(); s.RetainedBytes > before.RetainedBytes+64<<10 {
		t.Errorf("RetainedBytes %d before a rare giant, %d after it, %d two collections later: want it released",
			before.RetainedBytes, after.RetainedBytes, s.RetainedBytes)
	}
}

// TestPoolBoundsFromFirstCall checks MaxCap and the budget before any
// calibration, on the first calls.
func TestPoolBoundsFromFirstCall(t *testing.T) {
	reusetest.IgnoreLeaks(t) // drops Buffers on purpose; the debug build would report them
	reusetest.KeepPooled(t)
	p, err := bytebuf.NewPool(bytebuf.Config{MaxCap: 32 << 10, Budget: 128 << 10})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Get()
	write(b, 1<<20)
	p.Put(b)
	// The arrays it grew through up to MaxCap may be kept; the 1 MiB one
	// may not.
	if s := p.Stats(); s.Drops < 1 || s.RetainedBytes > 64<<10 {
		t.Errorf("first Put of a 1 MiB Buffer with MaxCap 32 KiB: %+v, want the 1 MiB array dropped", s)
	}

	// Many Buffers grown to just under MaxCap, put back together: the pool
	// keeps no more than the budget.
	var bufs []*bytebuf.Buffer
	for range 64 {
		b := p.Get()
		write(b, 30<<10)
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		p.Put(b)
	}
	if s := p.Stats(); s.RetainedBytes > 128<<10 {
		t.Errorf("RetainedBytes = %d, above Budget %d", s.RetainedBytes, 128<<10)
	}

	// A MaxCap between two size classes: a Buffer grown to the class above
	// it is not kept either.
	q, err := bytebuf.NewPool(bytebuf.Config{MaxCap: 40000, Budget: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	b = q.Get()
	b.Grow(39000)
	capacity := b.Cap()
	q.Put(b)
	if s := q.Stats(); capacity > 40000 && (s.Drops != 1 || s.RetainedBytes > 40000) {
		t.Errorf("Put of a Buffer of capacity %d with MaxCap 40000: %+v, want it dropped", capacity, s)
	}

	// The zero Pool does not keep an array above 64 KiB before it has
	// calibrated, and never one above DefaultMaxCap.
	var z bytebuf.Pool
	b = z.Get()
	write(z.Get(), 1) // a second Buffer, never put back: fine
	write(b, 256<<10)
	z.Put(b)
	if s := z.Stats(); s.Drops < 1 || s.RetainedBytes >= 256<<10 {
		t.Errorf("zero Pool, first Put of 256 KiB: %+v, want dropped", s)
	}
}

// TestPoolHammer runs many goroutines with lengths from tiny to above MaxCap
// and checks the budget after every round, natively and under -race.
func TestPoolHammer(t *testing.T) {
	const budget = 8 << 20
	p, err := bytebuf.NewPool(bytebuf.Config{MaxCap: 1 << 20, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var over sync.Once
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.Gosched() // wasm has no preemption: let the workers run
			}
			// Home arrays in use count too; 8 goroutines hold at most one
			// Buffer each beyond what the pool keeps.
			if s := p.Stats(); s.RetainedBytes > budget+8*(1<<20) {
				over.Do(func() { t.Errorf("RetainedBytes = %d during the hammer, budget %d", s.RetainedBytes, budget) })
			}
		}
	}()
	var workers sync.WaitGroup
	for g := range 8 {
		workers.Add(1)
		go func() {
			defer workers.Done()
			r := rand.New(rand.NewPCG(uint64(g), 5))
			for i := range 3000 {
				n := r.IntN(2048)
				switch r.IntN(50) {
				case 0:
					n = r.IntN(2 << 20)
				case 1, 2:
					n = 256<<10 + r.IntN(64<<10)
				}
				b := p.Get()
				if b.Len() != 0 {
					t.Errorf("Get returned a Buffer holding %d bytes", b.Len())
				}
				write(b, n)
				if b.Len() != n {
					t.Errorf("wrote %d bytes, Len = %d", n, b.Len())
				}
				b.AppendInt(int64(i))
				p.Put(b)
			}
		}()
	}
	workers.Wait()
	close(stop)
	wg.Wait()
	if s := p.Stats(); s.RetainedBytes > budget {
		t.Errorf("RetainedBytes = %d after the hammer, budget %d", s.RetainedBytes, budget)
	}
}

func TestPoolGetIsEmptyAndReused(t *testing.T) {
	reusetest.IgnoreLeaks(t) // drops Buffers on purpose; the debug build would report them
	reusetest.KeepPooled(t)
	var p bytebuf.Pool
	b := p.Get()
	b.WriteString("stale")
	p.Put(b)
	c := p.Get()
	if c != b {
		t.Errorf("Get after Put returned a new Buffer, want the one put back")
	}
	if c.Len() != 0 {
		t.Errorf("Get returned %q, want empty", c.Bytes())
	}
}

func TestPutNilAndForeign(t *testing.T) {
	var p bytebuf.Pool
	p.Put(nil)
	if s := p.Stats(); s.Drops != 0 || s.Puts != 0 {
		t.Errorf("Put(nil): %+v, want nothing counted", s)
	}
	p.Put(new(bytebuf.Buffer))
	if s := p.Stats(); s.Drops != 1 {
		t.Errorf("Put of a Buffer not from a Pool: Drops = %d, want 1", s.Drops)
	}
}

func TestAllocs(t *testing.T) {
	reusetest.KeepPooled(t) // a collection empties the pool, and the next Get allocates
	var p bytebuf.Pool
	t.Run("op=getput/size=100B", func(t *testing.T) {
		for range 5000 { // calibrate
			use(&p, 100)
		}
		reusetest.AllocsAtMost(t, 0, func() { use(&p, 100) })
	})
	t.Run("op=append", func(t *testing.T) {
		var b bytebuf.Buffer
		b.Grow(4096)
		tm := time.Date(2024, 5, 17, 8, 30, 0, 0, time.UTC)
		reusetest.AllocsAtMost(t, 0, func() {
			b.Reset()
			b.AppendInt(-1 << 63)
			b.AppendUint(1<<64 - 1)
			b.AppendFloat(3.14159, 'g', -1, 64)
			b.AppendFloat(1e300, 'e', 10, 64)
			b.AppendBool(false)
			b.AppendQuote("quote \"me\"\n")
			b.AppendTime(tm, time.RFC3339Nano)
		})
	})
	t.Run("op=append/empty", func(t *testing.T) {
		// From an empty pooled Buffer: the Append methods make room through
		// the pool, so the steady state does not allocate either.
		f := func() {
			b := p.Get()
			b.AppendInt(42)
			b.AppendFloat(2.5, 'f', 3, 64)
			b.AppendTime(time.Unix(0, 0).UTC(), time.RFC1123)
			p.Put(b)
		}
		// Let the pool calibrate to this workload. It follows the shift
		// down from 100 bytes after about 10000 Puts (the median of the
		// samples must move, and three calibrations agree), then drops the
		// Buffers whose home arrays are now too large: 30000 leaves margin.
		for range 30000 {
			f()
		}
		reusetest.AllocsAtMost(t, 0, f)
	})
}

func TestMisusePanics(t *testing.T) {
	tests := []struct {
		name  string
		want  string // in our panic message
		ours  func()
		bytes func() // the same misuse of bytes.Buffer, nil if it has none
	}{
		{"Grow(-1)", "bytebuf: Buffer.Grow", func() { new(bytebuf.Buffer).Grow(-1) }, func() { new(bytes.Buffer).Grow(-1) }},
		{"Truncate(-1)", "bytebuf: Buffer.Truncate", func() { new(bytebuf.Buffer).Truncate(-1) }, func() { new(bytes.Buffer).Truncate(-1) }},
		{"Truncate(Len+1)", "bytebuf: Buffer.Truncate", func() {
			var b bytebuf.Buffer
			b.WriteString("ab")
			b.Truncate(3)
		}, func() {
			var b bytes.Buffer
			b.WriteString("ab")
			b.Truncate(3)
		}},
		{"ReadFrom(negative)", "bytebuf: Buffer.ReadFrom", func() { new(bytebuf.Buffer).ReadFrom(negReader{}) }, func() { new(bytes.Buffer).ReadFrom(negReader{}) }},
		{"WriteTo(overcount)", "bytebuf: Buffer.WriteTo", func() {
			var b bytebuf.Buffer
			b.WriteString("ab")
			b.WriteTo(overWriter{})
		}, func() {
			var b bytes.Buffer
			b.WriteString("ab")
			b.WriteTo(overWriter{})
		}},
		{"Put(other Pool's)", "bytebuf: Pool.Put", func() {
			var p, q bytebuf.Pool
			q.Put(p.Get())
		}, nil},
		{"nil Pool Get", "bytebuf: Pool.Get", func() { (*bytebuf.Pool)(nil).Get() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.bytes != nil && !panics(tt.bytes) {
				t.Fatalf("bytes.Buffer does not panic on %s; neither should we", tt.name)
			}
			msg := panicMessage(tt.ours)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("%s: panic %q, want one naming %s", tt.name, msg, tt.want)
			}
		})
	}
}

type negReader struct{}

func (negReader) Read([]byte) (int, error) { return -1, nil }

type overWriter struct{}

func (overWriter) Write(p []byte) (int, error) { return len(p) + 1, nil }

func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	f()
	return "no panic"
}

func TestNewPool(t *testing.T) {
	tests := []struct {
		name string
		c    bytebuf.Config
		ok   bool
	}{
		{"zero", bytebuf.Config{}, true},
		{"small", bytebuf.Config{MaxCap: 4096, Budget: 4096}, true},
		{"MaxCap only", bytebuf.Config{MaxCap: 1 << 20}, true},
		{"negative MaxCap", bytebuf.Config{MaxCap: -1}, false},
		{"negative Budget", bytebuf.Config{Budget: -1}, false},
		{"Budget below MaxCap", bytebuf.Config{MaxCap: 1 << 20, Budget: 1 << 19}, false},
		{"Budget below default MaxCap", bytebuf.Config{Budget: 1 << 20}, false},
		{"MaxCap above MaxMaxCap", bytebuf.Config{MaxCap: bytebuf.MaxMaxCap + 1, Budget: 1 << 40}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := bytebuf.NewPool(tt.c)
			if tt.ok != (err == nil) || tt.ok != (p != nil) {
				t.Fatalf("NewPool(%+v) = %v, %v; want ok %v", tt.c, p, err, tt.ok)
			}
			if err != nil && !errors.Is(err, bytebuf.ErrConfig) {
				t.Errorf("NewPool(%+v): %v does not wrap ErrConfig", tt.c, err)
			}
			if p != nil {
				use(p, 100)
			}
		})
	}
}

// TestSizingSurvivesEmptyBeforePut checks that a Buffer emptied before Put,
// by Reset (the bytebufferpool and fasttemplate idiom) or by WriteTo, sizes
// the pool as well as one Put with its bytes: the pool learns the largest
// length written since Get, not the length at Put.
func TestSizingSurvivesEmptyBeforePut(t *testing.T) {
	reusetest.KeepPooled(t)
	const n = 3000
	idioms := []struct {
		name  string
		empty func(b *bytebuf.Buffer)
	}{
		{"put", func(*bytebuf.Buffer) {}},
		{"reset", func(b *bytebuf.Buffer) { b.Reset() }},
		{"writeto", func(b *bytebuf.Buffer) { b.WriteTo(io.Discard) }},
		{"truncate", func(b *bytebuf.Buffer) { b.Truncate(0) }},
	}
	for _, id := range idioms {
		t.Run("idiom="+id.name, func(t *testing.T) {
			var p bytebuf.Pool
			f := func() {
				b := p.Get()
				write(b, n)
				id.empty(b)
				p.Put(b)
			}
			for range 20000 {
				f()
			}
			if s := p.Stats(); s.DefaultCap < n {
				t.Errorf("after 20000 Puts of Buffers that held %d bytes: DefaultCap = %d, want at least %d", n, s.DefaultCap, n)
			}
			reusetest.AllocsAtMost(t, 0, f)
		})
	}
}

// TestDefaultCapSettles checks the hysteresis of the calibration: on a
// smooth distribution of lengths that does not change, the default
// capacity settles instead of wandering with the noise of the samples.
func TestDefaultCapSettles(t *testing.T) {
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(14, 14))
	lognormal := func() int { return max(1, min(1<<20, int(2048*math.Exp(r.NormFloat64())))) }
	for range 50000 { // warm up
		use(&p, lognormal())
	}
	seen := map[int]bool{}
	changes, last := 0, p.Stats().DefaultCap
	for range 200 {
		for range 1000 {
			use(&p, lognormal())
		}
		c := p.Stats().DefaultCap
		seen[c] = true
		if c != last {
			changes++
			last = c
		}
	}
	// The default may still flip between neighbouring classes now and then.
	// Over 1000 runs at each of -cpu 1, 4 and 16 (after the growth bound of
	// 391d096): 2 changes or fewer in 97% of runs, 2 values or fewer in 97%;
	// 4 values in 10 of the 3000 runs (with 3 or 4 changes), 5 or 6 changes
	// in 2. With other test binaries running beside it, as the packages of
	// CI's go test do, and under the race detector, whose sync.Pool drops a
	// share of the Buffers put back, the samples are noisier: 5 values (5
	// changes) in 1 of about 1400 runs at -cpu 1,4 beside two other
	// binaries, 7 changes (4 values) in 1 of about 1400 more; under the race
	// detector up to 5 changes in 72 runs and 4 values in a CI run. Wandering,
	// which this test guards against, took the default over 6 classes (12 to
	// 28 KiB); without the hysteresis it changes 20 to 29 times.
	maxChanges, maxValues := 8, 5
	if changes > maxChanges || len(seen) > maxValues {
		t.Errorf("DefaultCap changed %d times over 200000 Puts of one distribution, taking %d values (%v); want at most %d changes and %d values",
			changes, len(seen), slices.Sorted(maps.Keys(seen)), maxChanges, maxValues)
	}
}

// TestPoolReusesSmoothTails runs distributions with long smooth tails (no
// single size class holds a percent of the lengths), 4 Buffers in flight,
// and checks that once calibrated the arrays Buffers grow into are reused:
// every class up to the top of the lengths is kept, and growth never makes
// an array above the classes kept. The old rule (keep a class holding 1% of
// the Puts) reallocated one op in ten to twenty.
//
// It runs on one P: the per-P caches do not share with each other, so a
// goroutine that moves to another P leaves up to two arrays of each class in
// its old P's cache, until that P grows a Buffer again or the next
// collection detaches the cache. With the collector off (KeepPooled), a
// move during the measured runs cost up to 21 new arrays, at -cpu 2. What a
// P's cache holds is bounded (TestLocalCacheWithinReserve).
func TestPoolReusesSmoothTails(t *testing.T) {
	if debug.Enabled {
		// Seen at 0.019 allocs/op under the debug build, whose checks on
		// every Get and Put the claim is not made for.
		t.Skip("allocation counts are claimed for the normal build")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	reusetest.KeepPooled(t)
	tests := []struct {
		name   string
		length func(r *rand.Rand) int
	}{
		{"lognormal/median=2KiB/sigma=2", func(r *rand.Rand) int {
			return max(1, min(1<<20, int(2048*math.Exp(2*r.NormFloat64()))))
		}},
		{"pareto/min=512B/index=1.2", func(r *rand.Rand) int {
			return max(1, min(1<<20, int(512/math.Pow(1-r.Float64(), 1/1.2))))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p bytebuf.Pool
			r := rand.New(rand.NewPCG(5, 6))
			var inFlight [4]*bytebuf.Buffer
			for i := range inFlight {
				inFlight[i] = p.Get()
			}
			k := 0
			step := func() {
				k = (k + 1) % len(inFlight)
				write(inFlight[k], tt.length(r))
				p.Put(inFlight[k])
				inFlight[k] = p.Get()
			}
			for range 50000 {
				step()
			}
			a := reusetest.AllocsAtMost(t, 0.01, step)
			t.Logf("%v; stats %+v", a, p.Stats())
			for _, b := range inFlight {
				p.Put(b)
			}
			if s := p.Stats(); s.RetainedBytes > bytebuf.DefaultBudget {
				t.Errorf("RetainedBytes = %d, above the default budget %d", s.RetainedBytes, bytebuf.DefaultBudget)
			}
		})
	}
}

// TestPoolReusesRareTail: a length far above the calibrated top, but
// recurring between two collections (the top of a heavy tail, which the
// samples miss), grows through arrays that the previous such Buffer put
// back, instead of allocating them again. The pool used to drop every array
// more than a doubling above the calibrated top: each of these Buffers
// allocated its whole chain of growth, 8 arrays.
func TestPoolReusesRareTail(t *testing.T) {
	if debug.Enabled {
		t.Skip("allocation counts are claimed for the normal build")
	}
	reusetest.KeepPooled(t) // no collection: the arrays are not aged out
	// One P: the arrays up to 64 KiB go back to the cache of the P the
	// goroutine runs on, and a goroutine moved to another P between two
	// long Buffers finds none there (by design: 6 allocations, right after
	// a move, in up to 12 of 20 runs at GOMAXPROCS 2).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var p bytebuf.Pool
	for range 20000 {
		use(&p, 1000)
	}
	var allocs []uint64
	var ms runtime.MemStats
	for range 5 {
		for range 30000 {
			use(&p, 1000)
		}
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		use(&p, 256<<10)
		runtime.ReadMemStats(&ms)
		allocs = append(allocs, ms.Mallocs-before)
	}
	if s := p.Stats(); s.KeepCap >= 256<<10 {
		t.Fatalf("KeepCap = %d: the long Buffers are not rare to the calibration, the test's premise is wrong", s.KeepCap)
	}
	// The first one allocates its chain; of the others, a Get that found
	// no Buffer in the pool may allocate one.
	for i, n := range allocs[1:] {
		if n > 1 {
			t.Errorf("allocations of the rare 256 KiB Buffers: %v; want at most 1 after the first (Buffer %d); %+v", allocs, i+1, p.Stats())
			break
		}
	}
}

// TestDefaultCapFallsFast: when the lengths fall, the default capacity
// follows within a few calibrations, not the many the decayed weights take
// to cross the median (every Buffer up to the default gets all of its
// capacity meanwhile: on the drift workload of the distributions suite,
// capacity/written was 2.3 to 4.8 while the lengths fell). Measured: about
// 3000 Puts after the median falls 16-fold; 15000 before the lengths since
// the last calibration could move it down at once.
func TestDefaultCapFallsFast(t *testing.T) {
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(1, 2))
	length := func(median float64) int { return max(1, int(median*math.Exp(0.5*r.NormFloat64()))) }
	for range 40000 {
		use(&p, length(16384))
	}
	if d := p.Stats().DefaultCap; classDistance(d, 16384) > 2 {
		t.Fatalf("DefaultCap = %d after 40000 Puts of a median of 16384 bytes; the test's premise is wrong", d)
	}
	n := 0
	for ; n < 100000 && classDistance(p.Stats().DefaultCap, 1024) > 2; n++ {
		use(&p, length(1024))
	}
	// 2940 to 3050 Puts at -cpu 1,4 alone. Under the race detector, whose
	// sync.Pool drops a share of the Buffers put back, the new ones start
	// their sampling at random phases: 1300 to 6250 in 21 runs. With other
	// test binaries running beside it, as the packages of CI's go test do,
	// the same (7237 in 1 of about 1500 runs beside two others). The
	// behaviour this test guards against took 15000.
	limit := 10000
	if n > limit {
		t.Errorf("DefaultCap reached %d, within two classes of the new median 1024, after %d Puts; want at most %d", p.Stats().DefaultCap, n, limit)
	}
}

// TestHomeSwapWithinBudget: a Buffer made before the default capacity grew,
// which grows to exactly the new default, takes that array as its home at
// Put (so that it stops growing), but only while the home arrays stay
// within the budget. The swap used to be made whatever the budget: the
// Buffer was then dropped for being over it, and its new home stayed
// counted until the collector freed it, above the budget (a failure of
// TestPoolBoundsFromFirstCall once grown Buffers were sampled sooner).
func TestHomeSwapWithinBudget(t *testing.T) {
	reusetest.IgnoreLeaks(t) // drops Buffers on purpose; the debug build would report them
	reusetest.KeepPooled(t)  // no collection: the count is what the test reads
	const budget = 256 << 10
	p, err := bytebuf.NewPool(bytebuf.Config{MaxCap: 32 << 10, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	held := make([]*bytebuf.Buffer, 8)
	for i := range held {
		held[i] = p.Get() // made with the initial capacity
	}
	for i := 0; p.Stats().DefaultCap < 30<<10; i++ {
		if i == 100000 {
			t.Fatalf("DefaultCap = %d after 100000 Puts of 30 KiB; the test's premise is wrong", p.Stats().DefaultCap)
		}
		use(p, 30<<10)
	}
	for _, b := range held {
		write(b, 30<<10)
		p.Put(b)
	}
	if s := p.Stats(); s.RetainedBytes > budget {
		t.Errorf("RetainedBytes = %d after 8 old Buffers grew to the default: above the budget %d", s.RetainedBytes, budget)
	}
}

// TestPoolNoSharedArrays: no two Buffers in use ever share an array. Eight
// goroutines keep four Buffers each in flight, on log-normal lengths that
// make about half of them grow (through the per-P caches, the shared slots
// and the home swaps), while collections age and detach the caches and
// GOMAXPROCS goes down to 1 and up to 4 and back, so that slots and caches
// of Ps that stop running are left behind and new ones made; each goroutine
// fills its Buffers with its own byte and checks every byte before Put.
func TestPoolNoSharedArrays(t *testing.T) {
	var p bytebuf.Pool
	stop := make(chan struct{})
	collected := make(chan struct{})
	procs := runtime.GOMAXPROCS(0)
	go func() {
		defer close(collected)
		defer runtime.GOMAXPROCS(procs)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.GOMAXPROCS([]int{1, 4, procs}[i%3])
				if i%2 == 0 {
					runtime.GC()
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 7))
			mark := byte('a' + g)
			fill := bytes.Repeat([]byte{mark}, 5000)
			var inFlight [4]*bytebuf.Buffer
			for k := range inFlight {
				inFlight[k] = p.Get()
			}
			for i := range 20000 {
				k := i % len(inFlight)
				b := inFlight[k]
				n := max(1, min(1<<17, int(600*math.Exp(r.NormFloat64()))))
				for b.Len() < n {
					b.Write(fill[:min(n-b.Len(), 1+r.IntN(len(fill)))])
				}
				if i%64 == 0 {
					runtime.Gosched() // let the other goroutines use the Ps meanwhile
				}
				if j := bytes.IndexFunc(b.Bytes(), func(c rune) bool { return c != rune(mark) }); j >= 0 {
					t.Errorf("goroutine %d: byte %d of %d is %q, want %q: another Buffer wrote into this one's array",
						g, j, b.Len(), b.Bytes()[j], mark)
					return
				}
				p.Put(b)
				inFlight[k] = p.Get()
			}
			for _, b := range inFlight {
				p.Put(b)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-collected
}

// TestGrowthAtChunkBoundary: lengths around the size of the pieces they are
// written in (log-normal, median 4000 bytes, sigma 0.2, in pieces of 4 KiB,
// as io.Copy-style loops and 4 KiB records give). A Buffer whose first piece
// fills its 4 KiB home array grows at the second piece. It used to grow to at
// least twice what it held, 8 KiB for about 4.5 KiB written, which put
// capacity/written at 1.45 on these lengths. The first growth off the home
// array then went no further than the 80th percentile of the longer lengths,
// when that was below twice what the Buffer held; it now goes where the
// growth plan says (see TestGrowthTargets). Since then, the
// default capacity covers 80% of lengths this narrow (5 KiB, see
// TestDefaultCapCoversNarrow): a tenth of the Buffers grow instead of half,
// for capacity/written 1.29 instead of 1.24 (1.31 under the race detector),
// so the bound here, which caught the 1.45, is 1.35.
func TestGrowthAtChunkBoundary(t *testing.T) {
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(9, 10))
	length := func() int { return int(4000 * math.Exp(0.2*r.NormFloat64())) }
	for range 20000 {
		use(&p, length())
	}
	var capSum, written int
	for range 4000 {
		n := length()
		b := p.Get()
		write(b, n)
		capSum += b.Cap()
		written += n
		p.Put(b)
	}
	ratio := float64(capSum) / float64(written)
	t.Logf("capacity/written %.3f; stats %+v", ratio, p.Stats())
	if ratio > 1.35 {
		t.Errorf("capacity/written = %.3f around 4 KiB written in 4 KiB pieces, want at most 1.35", ratio)
	}
}

// TestGrowthOfPieces: log-normal lengths of median 16 KiB, sigma 0.5,
// written in pieces of 4 KiB, a shape the suite was not tuned for. A Buffer
// written in pieces copies what it holds at each growth, and ends with
// capacity it may not use: the growth plan weighs the two. Growing to the
// 80th percentile of the longer lengths, as growth did before the plan, each
// Buffer that grew with bytes on its home array grew 1.17 times, for
// capacity/written 1.44 here (1.44 to 1.51 with four Buffers in flight,
// above the 1.5 the pool is held to in three runs of eight); with the plan,
// 1.34 to 1.40 times, for 1.33 to 1.34 (1.35 to 1.40 with four in flight).
// The bounds: at most 1.6 growths each (not under the race detector, see
// below), and capacity/written at most 1.43.
func TestGrowthOfPieces(t *testing.T) {
	oneProc(t)
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(13, 14))
	length := func() int { return int(16384 * math.Exp(0.5*r.NormFloat64())) }
	for range 20000 {
		use(&p, length())
	}
	grown, growths := 0, 0
	var capSum, written, left int
	for range 4000 {
		n := length()
		written += n
		b := p.Get()
		home, c, k := b.Cap(), b.Cap(), 0
		for n > 0 {
			m := min(n, 4096)
			b.Write(payload[:m])
			n -= m
			if b.Cap() != c {
				left += c
				c = b.Cap()
				k++
			}
		}
		if k > 0 && home > 4096 {
			grown++
			growths += k
		}
		capSum += b.Cap()
		p.Put(b)
	}
	mean := float64(growths) / float64(max(grown, 1))
	ratio := float64(capSum) / float64(written)
	// What the plan minimizes, per byte written: capacity unused at Put
	// plus copyWeight (0.35 at these sizes) times the capacity each growth
	// left, which it copied.
	cost := (float64(capSum-written) + 0.35*float64(left)) / float64(written)
	t.Logf("%d Buffers grew with bytes on their home array, %.2f growths each; capacity/written %.3f; cost %.3f; stats %+v", grown, mean, ratio, cost, p.Stats())
	if grown < 1000 {
		t.Fatalf("only %d of 4000 Buffers grew with bytes on their home array: the test no longer tests that", grown)
	}
	// Growths: 1.34 at GOMAXPROCS 1 in 298 runs of 300 (amd64 and 386), 1.46
	// and 1.52 in the others, when the pool calibrated to a default one
	// class off; a plan that grows one class at a time grows 2.01 times.
	// Under the race detector, whose sync.Pool drops a share of the Buffers
	// put back, so that new ones sample at other phases, the calibrations
	// differ from run to run (-tags reusedebug, -cpu 1,4): 1.34 to 1.71
	// growths at capacity/written 1.28 to 1.35 in 136 runs of 140, and
	// nearly one class at a time in the others (1.83 to 2.01, at 1.25 to
	// 1.28; CI failed on one). By the plan's own measure (cost above, 0.597
	// to 0.655 in 60 of those runs) such weights make the two a near tie,
	// so the count is not bounded there. Capacity/written, in every mode:
	// 1.44 to 1.48 before the plan; with it, at most 1.38, and 1.40 to 1.41
	// where the default lands a class above the median, which is on a class
	// boundary (16 KiB): 2 runs of about 1400 on 386, each with another test
	// binary running beside it.
	if mean > 1.6 && !race.Enabled {
		t.Errorf("Buffers written in pieces grew %.2f times each, want at most 1.6", mean)
	}
	if ratio > 1.43 {
		t.Errorf("capacity/written %.3f, want at most 1.43", ratio)
	}
}

// TestOnePieceGrowsExact: an empty Buffer that outgrows its home array in
// one Write grows to exactly the class it needs when most such Buffers get
// nothing more (the pool counts which do), and further, by the growth plan,
// when most are written on: 70% of the lengths about 300 bytes, the others
// written as a first piece of 4 KiB and one to seven more. (With half and
// half, the default capacity landed in either mode, and in about one run in
// eight above the first piece, which the test needs below it.)
func TestOnePieceGrowsExact(t *testing.T) {
	oneProc(t)
	r := rand.New(rand.NewPCG(21, 22))
	var one bytebuf.Pool
	length := func() int { return int(600 * math.Exp(0.8*r.NormFloat64())) }
	for range 20000 {
		use(&one, length())
	}
	grew, exact := 0, 0
	for range 4000 {
		n := length()
		b := one.Get()
		home := b.Cap()
		b.Write(payload[:min(n, len(payload))])
		if b.Cap() != home {
			grew++
			if b.Cap() == sizeclass.Size(sizeclass.Class(b.Len())) {
				exact++
			}
		}
		one.Put(b)
	}
	t.Logf("one piece: %d of 4000 grew, %d to exactly the class needed; stats %+v", grew, exact, one.Stats())
	if grew < 400 {
		t.Fatalf("only %d of 4000 Buffers grew: the test no longer tests that", grew)
	}
	if exact < grew*9/10 {
		t.Errorf("one piece: %d of %d Buffers that grew took exactly the class they needed, want at least 90%%", exact, grew)
	}

	var more bytebuf.Pool
	next := func(b *bytebuf.Buffer) (first int) {
		if r.IntN(10) < 7 {
			b.Write(payload[:250+r.IntN(100)])
			return 0
		}
		b.Write(payload[:4096])
		for range 1 + r.IntN(7) {
			b.Write(payload[:4096])
		}
		return 4096
	}
	for range 20000 {
		b := more.Get()
		next(b)
		more.Put(b)
	}
	grew, exact = 0, 0
	for range 8000 {
		b := more.Get()
		home := b.Cap()
		if r.IntN(10) < 7 {
			b.Write(payload[:250+r.IntN(100)])
			more.Put(b)
			continue
		}
		if home >= 4096 {
			t.Fatalf("home array of %d: the test needs one below the first piece", home)
		}
		b.Write(payload[:4096])
		if b.Cap() != home {
			grew++
			if b.Cap() == 4096 {
				exact++
			}
		}
		for range 1 + r.IntN(7) {
			b.Write(payload[:4096])
		}
		more.Put(b)
	}
	t.Logf("pieces: %d of about 2400 grew at the first piece, %d to exactly 4 KiB; stats %+v", grew, exact, more.Stats())
	if grew < 1000 {
		t.Fatalf("only %d Buffers grew at their first piece: the test no longer tests that", grew)
	}
	if exact > grew/10 {
		t.Errorf("pieces: %d of %d Buffers grew to exactly their first piece, want at most 10%%: they are written on", exact, grew)
	}
}

// TestCapacityOnUntunedShapes: capacity/written on two shapes the growth
// rules were not tuned on, each run as the suite runs its workloads (four
// Buffers in flight): half the lengths log-normal of median 300 bytes and
// half of median 32 KiB, in pieces of 4 KiB (two kinds of requests through
// one pool), and exponential lengths of mean 4 KiB, each in one piece.
// With growth to percentiles of the longer lengths, they gave 1.50 to 1.54
// and 1.47 to 1.50; with the growth plan and exact growth for one piece,
// 1.41 to 1.43 and 1.24 to 1.30. Over three sequences, as now, the mix gave
// 1.504 to 1.548 with the percentiles (8 runs) and 1.386 to 1.467 with the
// plan (160 runs, amd64 and 386): the bound sits between.
func TestCapacityOnUntunedShapes(t *testing.T) {
	oneProc(t)
	r := rand.New(rand.NewPCG(77, 78))
	logNormal := func(median, sigma float64) int { return max(1, int(median*math.Exp(sigma*r.NormFloat64()))) }
	for _, shape := range []struct {
		name   string
		length func() int
		piece  int
		most   float64
	}{
		{"mix of 300 B and 32 KiB, in 4 KiB pieces", func() int {
			if r.IntN(2) == 0 {
				return logNormal(300, 0.5)
			}
			return logNormal(32<<10, 0.7)
		}, 4096, 1.49},
		{"exponential, mean 4 KiB, one piece", func() int { return max(1, int(4096*r.ExpFloat64())) }, 1 << 20, 1.4},
	} {
		// Three pools, three sequences, one ratio over all: the mix's
		// default capacity can settle in either mode, and one sequence
		// ranged from 1.38 to 1.477 over 240 runs.
		var capSum, written int64 // over 2^31 on 32-bit platforms
		for range 3 {
			var p bytebuf.Pool
			var inFlight [4]*bytebuf.Buffer
			for k := range inFlight {
				inFlight[k] = p.Get()
			}
			var c, w int64
			for i := range 60000 {
				n := min(shape.length(), 1<<20)
				b := inFlight[i%4]
				for m := n; m > 0; m -= shape.piece {
					b.Write(payload[:min(m, shape.piece)])
				}
				if i >= 20000 {
					c += int64(b.Cap())
					w += int64(n)
				}
				p.Put(b)
				inFlight[i%4] = p.Get()
			}
			for _, b := range inFlight {
				p.Put(b) // or the debug build reports them as leaks
			}
			capSum, written = capSum+c, written+w
			t.Logf("%s: capacity/written %.3f; stats %+v", shape.name, float64(c)/float64(w), p.Stats())
		}
		ratio := float64(capSum) / float64(written)
		t.Logf("%s: capacity/written %.3f over the three", shape.name, ratio)
		if ratio > shape.most {
			t.Errorf("%s: capacity/written %.3f, want at most %.2f", shape.name, ratio, shape.most)
		}
	}
}

// TestDefaultCapCoversNarrow checks where the default capacity settles:
// on lengths so narrow that the 80th percentile is one class above the
// 45th percentile's, it holds 80% of them (most Buffers would grow
// otherwise, for a quarter more capacity at most); on wider lengths, not
// above the median's class. Under the race detector, whose sync.Pool drops
// Buffers at random, the samples are biased low, and the narrow lengths
// settled on 3584 or 4096 in 4 of 30 runs: there only the bound is checked.
func TestDefaultCapCoversNarrow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lo, hi int // lengths uniform in [lo, hi)
		atMost int // the default's bound
		exact  bool
	}{
		// Median 3900 (class 4096), 80th percentile 4440 (class 5120).
		{"narrow", 3000, 4800, 5120, true},
		// Median 4500 (class 5120), 80th percentile 6600 (class 7168).
		{"wide", 1000, 8000, 5120, false},
	} {
		var p bytebuf.Pool
		r := rand.New(rand.NewPCG(1, 2))
		for range 20000 {
			use(&p, tc.lo+r.IntN(tc.hi-tc.lo))
		}
		if got := p.Stats().DefaultCap; got > tc.atMost || tc.exact && !race.Enabled && got != tc.atMost {
			t.Errorf("%s lengths in [%d, %d): DefaultCap %d, want %d (exactly: %v)", tc.name, tc.lo, tc.hi, got, tc.atMost, tc.exact)
		}
	}
}

// TestStaleHomeReplaced: Buffers made before the first calibration have
// 512-byte homes. On lengths around 12 KiB (log-normal, sigma 0.15), written
// in 4 KiB pieces, they
// grew at nearly every use, and never into an array of exactly the default
// capacity, which was the only way their home was replaced: so a program
// that keeps a few Buffers in flight from its start paid for growth on
// every op. A home more than a class below the default is now replaced at
// the Buffer's next grown Put.
func TestStaleHomeReplaced(t *testing.T) {
	var p bytebuf.Pool
	r := rand.New(rand.NewPCG(3, 4))
	var inFlight [4]*bytebuf.Buffer
	for k := range inFlight {
		inFlight[k] = p.Get() // before any calibration: 512-byte homes
	}
	grew, ops := 0, 0
	for i := range 40000 {
		k := i % len(inFlight)
		b := inFlight[k]
		c := b.Cap()
		write(b, int(12000*math.Exp(0.15*r.NormFloat64())))
		if i >= 20000 {
			ops++
			if b.Cap() != c {
				grew++
			}
		}
		p.Put(b)
		inFlight[k] = p.Get()
	}
	d := p.Stats().DefaultCap
	t.Logf("default %d, homes %d %d %d %d, grew %.2f", d, inFlight[0].Cap(), inFlight[1].Cap(), inFlight[2].Cap(), inFlight[3].Cap(), float64(grew)/float64(ops))
	for k, b := range inFlight {
		if b.Cap() < d*3/4 {
			t.Errorf("Buffer %d: home of %d bytes, default capacity %d: not replaced", k, b.Cap(), d)
		}
		p.Put(b)
	}
	// A tenth grow at the default of 14 KiB, half at 12 KiB (where the
	// race detector's noisier samples can leave it); all of them did.
	if share := float64(grew) / float64(ops); share > 0.6 {
		t.Errorf("%.2f of the uses grew, default capacity %d; want at most 0.6", share, d)
	}
}

// TestStatsCountsNeverFall: Stats.Gets, Puts and Calibrations never go down
// between two calls, while Buffers come and go and collections run: a
// metrics system reads them as counters, and takes a fall for a restart.
// The sweep after each collection moves the counts out of the state it lets
// go; a Stats that read the pool's part before the move and the state's
// after it would miss them.
func TestStatsCountsNeverFall(t *testing.T) {
	var p bytebuf.Pool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 11))
			for {
				select {
				case <-stop:
					return
				default:
				}
				for range 100 {
					b := p.Get()
					write(b, 1+r.IntN(3000))
					p.Put(b)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
				runtime.GC()
			}
		}
	}()
	var prev bytebuf.Stats
	falls := 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		s := p.Stats()
		if s.Gets < prev.Gets || s.Puts < prev.Puts || s.Calibrations < prev.Calibrations {
			if falls++; falls <= 3 {
				t.Errorf("Stats went down: Gets %d -> %d, Puts %d -> %d, Calibrations %d -> %d",
					prev.Gets, s.Gets, prev.Puts, s.Puts, prev.Calibrations, s.Calibrations)
			}
		}
		prev = s
	}
	close(stop)
	wg.Wait()
	if falls > 0 {
		t.Errorf("%d falls in all", falls)
	}
}

// TestLargeGrowthWithoutPlan: once the pool has calibrated, a Buffer that
// outgrows what its plan covers (lengths rarer than the top, past KeepCap)
// grows by a quarter, not by doubling, from 256 KiB up, as append grows
// large slices: on Pareto lengths capped at 1 MiB, the Buffers that outgrew
// every length sampled so far went from 768 KiB and 896 KiB to 1.5 and 1.75
// MiB, a third of the bytes bytebuf allocated in a pass of 65536 ops. Before
// the first calibration it still doubles, making fewer arrays while it knows
// nothing: adding a quarter then cost W11 (docs/WORKLOADS.md) 22% more bytes
// allocated in its warm-up.
func TestLargeGrowthWithoutPlan(t *testing.T) {
	for _, calibrated := range []bool{false, true} {
		var p bytebuf.Pool
		if calibrated {
			for range 20000 {
				use(&p, 1000) // a plan and a KeepCap far below what follows
			}
		}
		b := p.Get()
		var caps []int
		large, doubled := 0, 0
		for b.Len() < 1000<<10 {
			before := b.Cap()
			b.Write(payload[:4096])
			if c := b.Cap(); c != before {
				caps = append(caps, c)
				if before >= 256<<10 {
					large++
					if c >= 2*before {
						doubled++
					}
					if calibrated && c > before*3/2 {
						t.Errorf("calibrated: a Buffer of %d bytes in %d grew to %d, more than half again", b.Len(), before, c)
					}
				}
			}
		}
		t.Logf("calibrated %v: %d bytes, capacities %v", calibrated, b.Len(), caps)
		if !calibrated && doubled != large {
			t.Errorf("not calibrated: %d of the %d growths from 256 KiB up doubled, want all", doubled, large)
		}
		if calibrated && large < 4 {
			t.Errorf("calibrated: %d growths from 256 KiB up, want at least 4 (a quarter each)", large)
		}
		p.Put(b)
	}
}
