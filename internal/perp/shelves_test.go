package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestShelvesOrder: a P takes back what it put last, class by class, and
// an empty class gives nil.
func TestShelvesOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sh := NewShelves[int](3, 0)
	if sh.Classes() != 3 {
		t.Fatalf("Classes() = %d, want 3", sh.Classes())
	}
	a, b, c := new(int), new(int), new(int)
	sh.Put(1, a)
	sh.Put(1, b)
	sh.Put(2, c)
	for _, w := range []struct {
		class int
		want  *int
	}{{1, b}, {1, a}, {1, nil}, {0, nil}, {2, c}, {2, nil}} {
		if got := sh.Get(w.class); got != w.want {
			t.Errorf("Get(%d) = %p, want %p", w.class, got, w.want)
		}
	}
}

// TestShelvesReach: what one P put, another P takes when its own shelf is
// empty; a sync.Pool per class fails this for the value it keeps in the
// putting P's private slot.
func TestShelvesReach(t *testing.T) {
	testReach(t, NewShelves[int](1, 0))
}

// shelver is what testReach needs of Shelves.
type shelver interface {
	Get(c int) *int
	Put(c int, v *int)
}

func testReach(t *testing.T, sh shelver) {
	if !OK {
		t.Skip("no Ps to tell apart (race detector or TinyGo)")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one P only (js/wasm)")
	}
	// Two goroutines that never block run on the two Ps at once: the first
	// to claim the value puts it, and then says from which P; the first
	// that finds itself on another P takes.
	v := new(int)
	var claimed, done atomic.Bool
	var from atomic.Int32
	from.Store(-1)
	got := make(chan *int, 2)
	for range 2 {
		go func() {
			deadline := time.Now().Add(5 * time.Second)
			for !done.Load() {
				if time.Now().After(deadline) {
					if done.CompareAndSwap(false, true) {
						got <- nil
					}
					return
				}
				p := int32(pid())
				if claimed.CompareAndSwap(false, true) {
					sh.Put(0, v)
					from.Store(p)
					continue
				}
				if f := from.Load(); f >= 0 && f != p && done.CompareAndSwap(false, true) {
					got <- sh.Get(0)
					return
				}
			}
		}()
	}
	if g := <-got; g != v {
		t.Fatalf("the P that did not put the value took %p, want %p", g, v)
	}
}

// TestShelvesConcurrent: under concurrent Gets and Puts on every P, no value
// is handed to two goroutines at once, and none is lost.
func TestShelvesConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const goroutines, each, rounds = 8, 16, 2000
	sh := NewShelves[int32](2, 0)
	for range goroutines * each {
		sh.Put(0, new(int32))
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var held []*int32
			for r := range rounds {
				c := (g + r) % 2
				if v := sh.Get(c); v != nil {
					if *v != 0 {
						t.Errorf("value handed out while held")
						return
					}
					*v = 1
					held = append(held, v)
				}
				if len(held) > 0 && (r%3 == 0 || len(held) > each) {
					v := held[len(held)-1]
					held = held[:len(held)-1]
					*v = 0
					sh.Put(1-c, v)
				}
			}
			for _, v := range held {
				*v = 0
				sh.Put(0, v)
			}
		}()
	}
	wg.Wait()
	n := 0
	for c := range 2 {
		for sh.Get(c) != nil {
			n++
		}
	}
	if n != goroutines*each {
		t.Errorf("%d values left, want %d", n, goroutines*each)
	}
}

// TestShelvesAge: a value on a shelf outlives the first sweep after its Put,
// as in a sync.Pool's victim, and not the second.
func TestShelvesAge(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sh := NewShelves[int](2, 1)
	a, b := new(int), new(int)
	sh.Put(1, a)
	if !Collect(1) {
		t.Fatal("no sweep")
	}
	if got := sh.Get(1); got != a {
		t.Fatalf("Get after one sweep = %p, want %p", got, a)
	}
	sh.Put(1, b)
	if !Collect(2) {
		t.Fatal("no sweep")
	}
	sh.Get(0) // the first use after the second sweep: b was aside since the first
	if got := sh.Get(1); got != nil {
		t.Fatalf("Get after two sweeps = %p, want nil", got)
	}
}
