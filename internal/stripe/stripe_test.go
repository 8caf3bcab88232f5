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
	if len(c.cells) < 2 || len(c.cells)&(len(c.cells)-1) != 0 {
		t.Fatalf("len(cells) = %d, want a power of two >= 2", len(c.cells))
	}
	if got := int(unsafeSizeofCell()); got != 128 {
		t.Errorf("sizeof(cell) = %d, want 128", got)
	}
}
