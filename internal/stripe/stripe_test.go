package stripe

import (
	"sync"
	"testing"
)

func TestCountersExactUnderConcurrency(t *testing.T) {
	c := New()
	const goroutines, each = 8, 10000
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				c.Add(0)
				if i%2 == 0 {
					c.Add(3)
				}
			}
		}()
	}
	wg.Wait()
	if got, want := c.Sum(0), uint64(goroutines*each); got != want {
		t.Errorf("Sum(0) = %d, want %d", got, want)
	}
	if got, want := c.Sum(3), uint64(goroutines*each/2); got != want {
		t.Errorf("Sum(3) = %d, want %d", got, want)
	}
	if got := c.Sum(1); got != 0 {
		t.Errorf("Sum(1) = %d, want 0", got)
	}
}

func TestCellsArePadded(t *testing.T) {
	c := New()
	if len(c.cells) < 2 {
		t.Fatalf("len(cells) = %d, want one per P plus the shared one", len(c.cells))
	}
	if got := int(unsafeSizeofCell()); got != 128 {
		t.Errorf("sizeof(cell) = %d, want 128", got)
	}
}

func TestOverflowCellCounts(t *testing.T) {
	// Counters made for fewer Ps than run still count every Add exactly.
	c := &Counters{cells: make([]cell, 1)} // only the shared cell
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.Add(2)
			}
		}()
	}
	wg.Wait()
	if got := c.Sum(2); got != 4000 {
		t.Errorf("Sum(2) = %d, want 4000", got)
	}
}

func BenchmarkAdd(b *testing.B) {
	c := New()
	b.Run("mode=serial", func(b *testing.B) {
		for b.Loop() {
			c.Add(0)
		}
	})
	b.Run("mode=parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				c.Add(1)
			}
		})
	})
}
