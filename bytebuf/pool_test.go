package bytebuf_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/race"
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

// rounds returns n, or a third of n under the race detector: a hammer's
// rounds there cost about ten times as much, and the detector sees a race
// on the first pair of accesses that makes it, not on the thousandth.
func rounds(n int) int {
	if race.Enabled {
		return n / 3
	}
	return n
}

// oneProc runs the rest of the test at GOMAXPROCS 1, for tests of what the
// sizing makes of one goroutine's lengths: each P sizes on the lengths put
// back on it, so with more Ps a goroutine that moves sees each one's
// default.
//
// A test that runs on one P does the same at every -cpu value, so it runs
// at the first only: scripts/test's -race -cpu=1,4 would otherwise repeat
// the sizing tests, the slowest of the race passes, at -cpu=4. -count
// repeats still run.
func oneProc(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if first, ran := oneProcRuns.LoadOrStore(t.Name(), procs); ran && first != procs {
		t.Skipf("runs on one P: the same as its run at -cpu=%d", first)
	}
	prev := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

// oneProcRuns maps the name of each test that called oneProc to the
// GOMAXPROCS it started at the first time.
var oneProcRuns sync.Map

func write(b *bytebuf.Buffer, n int) {
	for n > 0 {
		k := min(n, 4096)
		b.Write(payload[:k])
		n -= k
	}
}

// TestPoolBoundsFromFirstCall checks MaxCap and the budget before any
// window of the sizing ends, on the first calls.
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

	// The zero Pool never keeps an array above DefaultMaxCap.
	var z bytebuf.Pool
	b = z.Get()
	write(b, 5<<20)
	z.Put(b)
	if s := z.Stats(); s.Drops != 1 || s.RetainedBytes > bytebuf.DefaultMaxCap {
		t.Errorf("zero Pool, Put of a 5 MiB Buffer: %+v, want it dropped", s)
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
			for i := range rounds(3000) {
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
		for range 5000 { // let the sizing settle
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
		// Let the pool size itself to this workload: its default falls
		// from the one of the earlier lengths within two windows (at most
		// 2 * 960 Puts), and the Buffers of the old default leave its
		// stack; 30000 leaves margin.
		for range 30000 {
			f()
		}
		reusetest.AllocsAtMost(t, 0, f)
	})
	t.Run("op=readfrom", func(t *testing.T) {
		// ReadFrom into a Buffer that holds bytes grows past the default
		// in each op, and keeps the array it began with from the pool
		// until it returns (r might read it): no allocation either.
		src := bytes.Repeat([]byte("r"), 4096-8) // then no room for bytes.MinRead: a growth
		var r bytes.Reader
		hr := iotest.HalfReader(&r) // reads of at most half what is asked: growth in pieces
		f := func() {
			b := p.Get()
			b.WriteString("prefix: ")
			r.Reset(src)
			if n, err := b.ReadFrom(hr); n != 4096-8 || err != nil {
				t.Fatalf("ReadFrom = %d, %v", n, err)
			}
			p.Put(b)
		}
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
		{"WriteTo(negative)", "bytebuf: Buffer.WriteTo", func() {
			var b bytebuf.Buffer
			b.WriteString("ab")
			b.WriteTo(negWriter{})
		}, nil}, // bytes.Buffer moves its offset back instead
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

type negWriter struct{}

func (negWriter) Write([]byte) (int, error) { return -1, nil }

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
			for i := range rounds(20000) {
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
