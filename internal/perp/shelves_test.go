package perp

import (
	"runtime"
	"sync"
	"testing"
)

// TestShelvesOrder: a P takes back what it put last, class by class, and
// an empty class gives nil.
func TestShelvesOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	sh := NewShelves[int](3)
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
	sh := NewShelves[int](1)
	v := new(int)
	var got *int
	if ran, skip := Handoff(func() { sh.Put(0, v) }, func() { got = sh.Get(0) }); skip != "" {
		t.Skip(skip)
	} else if !ran {
		t.Fatal("no goroutine ran on a second P within 5s")
	}
	if got != v {
		t.Fatalf("the P that did not put the value took %p, want %p", got, v)
	}
}

// TestShelvesConcurrent: under concurrent Gets and Puts on every P, no value
// is handed to two goroutines at once, and none is lost.
func TestShelvesConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const goroutines, each, rounds = 8, 16, 2000
	sh := NewShelves[int32](2)
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
	sh := NewShelves[int](2)
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

var benchSink int

// BenchmarkShelvesPutGet: a Put and a Get of one class on one goroutine,
// beside the same on a sync.Pool, which a class's shelves replaced below
// 16 KiB in bytebuf.
func BenchmarkShelvesPutGet(b *testing.B) {
	v := new(int)
	b.Run("shelves", func(b *testing.B) {
		sh := NewShelves[int](4)
		n := 0
		for range b.N {
			sh.Put(3, v)
			if sh.Get(3) == v {
				n++
			}
		}
		benchSink = n
	})
	b.Run("syncpool", func(b *testing.B) {
		var p sync.Pool
		n := 0
		for range b.N {
			p.Put(v)
			if p.Get() == any(v) {
				n++
			}
		}
		benchSink = n
	})
}
