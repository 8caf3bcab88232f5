package reuse_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

type item struct {
	id   int
	data [8]int
}

func TestZeroValueGetReturnsZero(t *testing.T) {
	var p reuse.Pool[*item]
	if got := p.Get(); got != nil {
		t.Errorf("zero Pool[*item].Get() = %v, want nil", got)
	}
	var q reuse.Pool[[]byte]
	if got := q.Get(); got != nil {
		t.Errorf("zero Pool[[]byte].Get() = %v, want nil", got)
	}
	var r reuse.Pool[int]
	if got := r.Get(); got != 0 {
		t.Errorf("zero Pool[int].Get() = %v, want 0", got)
	}
	if s := p.Stats(); s != (reuse.Stats{}) {
		t.Errorf("Stats() = %+v, want zero (Get without New creates nothing)", s)
	}
}

func TestNewIsCalledAndCounted(t *testing.T) {
	reusetest.KeepPooled(t)
	n := 0
	p := reuse.Pool[*item]{New: func() *item { n++; return &item{id: n} }}
	a, b := p.Get(), p.Get()
	if a.id != 1 || b.id != 2 {
		t.Fatalf("Get, Get = ids %d, %d, want 1, 2", a.id, b.id)
	}
	p.Put(a)
	c := p.Get()
	if c != a {
		t.Errorf("Get after Put(a) = %p, want a %p", c, a)
	}
	p.Put(b) // give everything back: the debug build reports leaks
	p.Put(c)
	if got := p.Stats().News; got != 2 {
		t.Errorf("Stats().News = %d, want 2", got)
	}
}

// TestRoundTrip checks that every kind of T comes back from the pool as it
// was stored, whether stored directly or through a box.
func TestRoundTrip(t *testing.T) {
	reusetest.KeepPooled(t)
	t.Run("T=ptr", func(t *testing.T) { roundTrip(t, &item{id: 7}, func(a, b *item) bool { return a == b }) })
	t.Run("T=slice", func(t *testing.T) {
		roundTrip(t, []byte("hello"), func(a, b []byte) bool { return &a[0] == &b[0] && string(a) == string(b) })
	})
	t.Run("T=struct", func(t *testing.T) {
		roundTrip(t, item{id: 3, data: [8]int{1, 2}}, func(a, b item) bool { return a == b })
	})
	t.Run("T=string", func(t *testing.T) { roundTrip(t, "text", func(a, b string) bool { return a == b }) })
	t.Run("T=int", func(t *testing.T) { roundTrip(t, 42, func(a, b int) bool { return a == b }) })
	t.Run("T=map", func(t *testing.T) {
		roundTrip(t, map[string]int{"a": 1}, func(a, b map[string]int) bool { return b["a"] == 1 && len(b) == 1 })
	})
	t.Run("T=interface", func(t *testing.T) {
		buf := new(bytes.Buffer)
		roundTrip[io.Writer](t, buf, func(a, b io.Writer) bool { return a == b })
	})
	t.Run("T=func", func(t *testing.T) {
		roundTrip(t, func() int { return 5 }, func(a, b func() int) bool { return b() == 5 })
	})
}

func roundTrip[T any](t *testing.T, v T, same func(a, b T) bool) {
	t.Helper()
	var p reuse.Pool[T]
	p.Put(v)
	got := p.Get()
	if !same(v, got) {
		t.Errorf("Get() after Put(%v) = %v, want the same value", v, got)
	}
	defer p.Put(got) // give it back: the debug build reports leaks
	if s := p.Stats(); s.Drops != 0 {
		t.Errorf("Stats().Drops = %d, want 0", s.Drops)
	}
}

func TestPutNilIsDroppedNotStored(t *testing.T) {
	reusetest.KeepPooled(t)
	t.Run("T=ptr", func(t *testing.T) { putNil[*item](t, &item{}) })
	t.Run("T=slice", func(t *testing.T) { putNil[[]byte](t, []byte{1}) })
	t.Run("T=map", func(t *testing.T) { putNil[map[int]int](t, map[int]int{}) })
	t.Run("T=chan", func(t *testing.T) { putNil[chan int](t, make(chan int)) })
	t.Run("T=func", func(t *testing.T) { putNil[func()](t, func() {}) })
	t.Run("T=interface", func(t *testing.T) { putNil[io.Reader](t, strings.NewReader("x")) })
}

func putNil[T any](t *testing.T, fresh T) {
	t.Helper()
	accepted := 0
	p := reuse.Pool[T]{
		New:    func() T { return fresh },
		Accept: func(T) bool { accepted++; return true },
	}
	var zero T
	p.Put(zero)
	if got := p.Stats().Drops; got != 1 {
		t.Errorf("Put(nil): Stats().Drops = %d, want 1", got)
	}
	if accepted != 0 {
		t.Errorf("Put(nil) called Accept %d times, want 0", accepted)
	}
	got := p.Get()
	if isNil(got) {
		t.Errorf("Get() after Put(nil) returned nil, want New's value")
	}
	defer p.Put(got) // give it back: the debug build reports leaks
	if s := p.Stats(); s.News != 1 {
		t.Errorf("Get() after Put(nil): Stats().News = %d, want 1 (the nil must not be stored)", s.News)
	}
}

func isNil[T any](v T) bool {
	switch x := any(v).(type) {
	case *item:
		return x == nil
	case []byte:
		return x == nil
	case map[int]int:
		return x == nil
	case chan int:
		return x == nil
	case func():
		return x == nil
	case io.Reader:
		return x == nil
	}
	return any(v) == nil
}

func TestEmptyNonNilSliceIsKept(t *testing.T) {
	reusetest.KeepPooled(t)
	var p reuse.Pool[[]byte]
	p.Put(make([]byte, 0, 16))
	if got := p.Get(); cap(got) != 16 {
		t.Errorf("Get() after Put(empty slice with cap 16) = cap %d, want 16", cap(got))
	}
	if d := p.Stats().Drops; d != 0 {
		t.Errorf("Stats().Drops = %d, want 0", d)
	}
}

func TestAcceptDropsAndCounts(t *testing.T) {
	reusetest.KeepPooled(t)
	p := reuse.Pool[[]byte]{
		New:    func() []byte { return make([]byte, 0, 64) },
		Accept: func(b []byte) bool { return cap(b) <= 1024 },
	}
	p.Put(make([]byte, 0, 4096))
	p.Put(make([]byte, 0, 512))
	if got := p.Stats().Drops; got != 1 {
		t.Fatalf("Stats().Drops = %d, want 1", got)
	}
	if got := p.Get(); cap(got) != 512 {
		t.Errorf("Get() = cap %d, want the accepted 512", cap(got))
	}
	if got := p.Get(); cap(got) != 64 {
		t.Errorf("second Get() = cap %d, want New's 64 (the refused buffer must not be kept)", cap(got))
	}
}

func TestAcceptRunsBeforeReset(t *testing.T) {
	var order []string
	p := reuse.Pool[*item]{
		Accept: func(*item) bool { order = append(order, "accept"); return true },
		Reset:  func(*item) { order = append(order, "reset") },
	}
	p.Put(&item{})
	if got := strings.Join(order, ","); got != "accept,reset" {
		t.Errorf("Put called %q, want accept,reset", got)
	}
	order = nil
	p.Accept = func(*item) bool { order = append(order, "accept"); return false }
	p.Put(&item{})
	if got := strings.Join(order, ","); got != "accept" {
		t.Errorf("Put of a refused value called %q, want accept only (no Reset)", got)
	}
}

// TestAcceptMayReset: an Accept that resets what it keeps, with Reset nil
// (the one-call form the Accept field's documentation suggests), hands back
// clean values and drops what it refuses.
func TestAcceptMayReset(t *testing.T) {
	reusetest.KeepPooled(t)
	p := reuse.Pool[*item]{
		New: func() *item { return new(item) },
		Accept: func(it *item) bool {
			if it.id < 0 {
				return false
			}
			*it = item{}
			return true
		},
	}
	dirty := &item{id: 7, data: [8]int{1, 2, 3}}
	p.Put(dirty)
	p.Put(&item{id: -1})
	if got := p.Stats().Drops; got != 1 {
		t.Errorf("Stats().Drops = %d, want 1 (the refused item)", got)
	}
	got := p.Get()
	if got != dirty {
		t.Fatalf("Get() = %p, want the accepted item %p", got, dirty)
	}
	if *got != (item{}) {
		t.Errorf("Get() = %+v, want it reset by Accept", *got)
	}
	if again := p.Get(); again.id != 0 || again == dirty {
		t.Errorf("second Get() = %+v, want a new item (the refused one must not be kept)", *again)
	}
}

// TestDirtyNeverComesBackDirty puts values back dirty from many goroutines and
// checks that Get never returns one that Reset did not clean. A tenth of the
// rounds under the race detector: a value two goroutines hold at once is a
// race it reports at the first pair of accesses, and there the debug build's
// hooks make each round cost twelve times what it costs with -race alone.
func TestDirtyNeverComesBackDirty(t *testing.T) {
	rounds := 100_000
	if testing.Short() || runtime.GOARCH == "wasm" || race.Enabled {
		rounds = 10_000
	}
	const goroutines = 8
	p := reuse.Pool[*item]{
		New:   func() *item { return new(item) },
		Reset: func(it *item) { *it = item{} },
	}
	var violations atomic.Int64
	var wg sync.WaitGroup
	for g := 1; g <= goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				it := p.Get()
				if *it != (item{}) {
					violations.Add(1)
				}
				it.id = g
				it.data[i%8] = i + 1
				p.Put(it)
			}
		}()
	}
	wg.Wait()
	if v := violations.Load(); v != 0 {
		t.Errorf("%d of %d Gets returned a value left dirty by its previous user", v, goroutines*rounds)
	}
}

func TestCountAll(t *testing.T) {
	p := reuse.Pool[*item]{New: func() *item { return new(item) }}
	p.Put(p.Get())
	if s := p.Stats(); s.Gets != 0 || s.Puts != 0 {
		t.Errorf("without CountAll: Stats() = %+v, want Gets and Puts 0", s)
	}
	q := reuse.Pool[*item]{New: func() *item { return new(item) }, CountAll: true}
	for i := 0; i < 10; i++ {
		q.Put(q.Get())
	}
	q.Put(nil)
	s := q.Stats()
	if s.Gets != 10 || s.Puts != 10 || s.Drops != 1 {
		t.Errorf("with CountAll: Stats() = %+v, want Gets 10, Puts 10 (the dropped nil is not a Put), Drops 1", s)
	}
	if s.Hits() != s.Gets-s.News {
		t.Errorf("Hits() = %d, want Gets-News = %d", s.Hits(), s.Gets-s.News)
	}
}

// TestHammer runs Get and Put from many goroutines with every hook and the
// counters on; run it with -race. The counts must be exact afterwards.
func TestHammer(t *testing.T) {
	const goroutines, each = 8, 5000
	var resets atomic.Int64
	p := reuse.Pool[[]byte]{
		New:      func() []byte { return make([]byte, 0, 32) },
		Reset:    func([]byte) { resets.Add(1) },
		Accept:   func(b []byte) bool { return cap(b) <= 64 },
		CountAll: true,
	}
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				b := p.Get()
				b = append(b[:0], byte(i))
				if i%10 == 0 {
					b = make([]byte, 0, 128) // refused by Accept
				}
				p.Put(b)
			}
		}()
	}
	wg.Wait()
	s := p.Stats()
	if s.Gets != goroutines*each {
		t.Errorf("Gets = %d, want %d", s.Gets, goroutines*each)
	}
	if want := uint64(goroutines * each / 10); s.Drops != want {
		t.Errorf("Drops = %d, want %d", s.Drops, want)
	}
	if s.Puts+s.Drops != goroutines*each {
		t.Errorf("Puts+Drops = %d, want %d", s.Puts+s.Drops, goroutines*each)
	}
	if got := uint64(resets.Load()); got != s.Puts {
		t.Errorf("Reset ran %d times, want once per kept Put (%d)", got, s.Puts)
	}
}

// TestPoolRelease follows the standard library's TestPoolRelease: values put
// in the pool must still be collected once the pool is no longer used, so the
// pool (and its boxes) never keep them alive.
func TestPoolRelease(t *testing.T) {
	t.Run("T=ptr", func(t *testing.T) {
		var p reuse.Pool[*item]
		testRelease(t, func() (*int, func()) {
			it := &item{id: 1}
			return &it.id, func() { p.Put(it) }
		})
	})
	t.Run("T=slice", func(t *testing.T) {
		var p reuse.Pool[[]int]
		testRelease(t, func() (*int, func()) {
			s := make([]int, 1024)
			return &s[0], func() { p.Put(s) }
		})
	})
	t.Run("T=slice/after-unbox", func(t *testing.T) {
		// A value taken out of its box and dropped by its user is collected.
		// (The emptied box is zeroed on Get; that is hygiene the test cannot
		// observe, since the box itself lives no longer than the pool's
		// two-collection retention.)
		var p reuse.Pool[[]int]
		testRelease(t, func() (*int, func()) {
			s := make([]int, 1024)
			return &s[0], func() { p.Put(s); sink = p.Get(); sink = nil }
		})
	})
}

var sink []int

func testRelease(t *testing.T, mk func() (*int, func())) {
	t.Helper()
	const n = 100
	var cleaned atomic.Int64
	for i := 0; i < n; i++ {
		ptr, put := mk()
		runtime.AddCleanup(ptr, func(c *atomic.Int64) { c.Add(1) }, &cleaned)
		put()
	}
	// The first GC moves pooled values to the victim cache, the second
	// frees them. The pool's per-P slots may each keep one value until the
	// pool is used again (see Retention in the package docs); everything
	// else must go.
	want := int64(n - runtime.GOMAXPROCS(0))
	reusetest.CollectUntil(t, "the pooled values' cleanups", func() bool { return cleaned.Load() >= want })
	if got := cleaned.Load(); got < want {
		t.Errorf("%d of %d pooled values were collected, want at least %d", got, n, want)
	}
}

func TestNilReceiverPanics(t *testing.T) {
	var p *reuse.Pool[*item]
	for _, tc := range []struct {
		name string
		call func()
	}{
		{"Get", func() { p.Get() }},
		{"Put", func() { p.Put(nil) }},
		{"Stats", func() { p.Stats() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if want := "reuse: Pool." + tc.name; !strings.HasPrefix(msg, want) {
					t.Errorf("panic = %q, want a message starting %q", msg, want)
				}
			}()
			tc.call()
		})
	}
}

func TestAllocations(t *testing.T) {
	t.Run("T=ptr", func(t *testing.T) {
		p := reuse.Pool[*item]{New: func() *item { return new(item) }, Reset: func(it *item) { *it = item{} }}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("T=slice", func(t *testing.T) {
		p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 1024) }}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("T=struct", func(t *testing.T) {
		p := reuse.Pool[item]{}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("T=string", func(t *testing.T) {
		p := reuse.Pool[string]{New: func() string { return "s" }}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("T=interface", func(t *testing.T) {
		p := reuse.Pool[io.Writer]{New: func() io.Writer { return new(bytes.Buffer) }}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("CountAll", func(t *testing.T) {
		p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 64) }, CountAll: true}
		reusetest.AllocsAtMost(t, 0, func() { p.Put(p.Get()) })
	})
	t.Run("Put(nil)", func(t *testing.T) {
		var p reuse.Pool[*item]
		reusetest.AllocsAtMost(t, 0, func() { p.Put(nil) })
	})
}

// TestHammerValuesIntact moves struct values (stored in boxes, and in the
// per-P slots' own boxes) between goroutines and checks that none comes back
// torn (fields from two different Puts) or handed to two users at once.
func TestHammerValuesIntact(t *testing.T) {
	const goroutines, each = 8, 20000
	var p reuse.Pool[item]
	var torn, dup atomic.Int64
	var inUse sync.Map
	var wg sync.WaitGroup
	for g := 1; g <= goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				v := p.Get()
				for _, d := range v.data {
					if d != v.id {
						torn.Add(1)
						break
					}
				}
				if v.id != 0 {
					if _, loaded := inUse.LoadOrStore(v.id, true); loaded {
						dup.Add(1)
					}
					inUse.Delete(v.id)
				}
				id := g*each + i + 1 // unique per Put
				v = item{id: id}
				for k := range v.data {
					v.data[k] = id
				}
				p.Put(v)
				if i%7 == 0 {
					runtime.Gosched() // let values migrate between Ps
				}
			}
		}()
	}
	wg.Wait()
	if n := torn.Load(); n != 0 {
		t.Errorf("%d values came back torn", n)
	}
	if n := dup.Load(); n != 0 {
		t.Errorf("%d values were handed to two users at once", n)
	}
}
