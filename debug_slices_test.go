//go:build reusedebug

package reuse_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/reusetest"
)

// The debug build's checks on Slices (-tags reusedebug).

func TestSlicesDebugDoublePut(t *testing.T) {
	m := catchMisuse(t)
	var sl reuse.Slices[byte]
	s := sl.Get(100)
	sl.Put(s)
	sl.Put(s[:0]) // the same array
	got := m.all()
	if len(got) != 1 || got[0].Kind != reuse.DoublePut || !strings.HasPrefix(got[0].Pool, "*reuse.Slices[byte] at 0x") {
		t.Fatalf("reports %v, want one double Put on *reuse.Slices[byte]", got)
	}
}

func TestSlicesDebugUseAfterPut(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T) // Get, Put, write, Get
		want string
	}{
		{"E=byte/poison", func(t *testing.T) {
			var sl reuse.Slices[byte]
			s := sl.Get(100)
			copy(s, "secret")
			sl.Put(s)
			if !bytes.HasPrefix(s, []byte{0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD}) {
				t.Errorf("stale slice after Put = % x, want poison", s[:6])
			}
			s[3] = 1
			sl.Put(sl.Get(100))
		}, "byte 3 of"},
		{"E=int64/poison", func(t *testing.T) {
			var sl reuse.Slices[int64]
			s := sl.Get(10)
			sl.Put(s)
			s[1] = 7 // bytes 8..15
			sl.Put(sl.Get(10))
		}, "byte 8 of"},
		{"E=byte/zero/snapshot", func(t *testing.T) {
			sl := reuse.Slices[byte]{Zero: true}
			s := sl.Get(100)
			copy(s, "secret")
			sl.Put(s)
			s[5] = 'x'
			if got := sl.Get(100); got[5] != 'x' {
				t.Errorf("the debug build changed a Zero pool's memory")
			} else {
				got[5] = 0
				sl.Put(got)
			}
		}, "byte 5 of its"},
		{"E=pointer/snapshot", func(t *testing.T) {
			var sl reuse.Slices[*int]
			s := sl.Get(4)
			sl.Put(s)
			s[0] = new(int)
			sl.Put(sl.Get(4))
		}, "changed after Put"}, // the first byte that differs depends on the address
	} {
		t.Run(tc.name, func(t *testing.T) {
			reusetest.KeepPooled(t)
			m := catchMisuse(t)
			tc.run(t)
			got := m.all()
			if len(got) != 1 || got[0].Kind != reuse.UseAfterPut || !strings.Contains(got[0].Detail, tc.want) ||
				!strings.Contains(got[0].Stacks, "next Get:") {
				t.Fatalf("reports %v, want one use after Put saying %q", got, tc.want)
			}
		})
	}
}

func TestSlicesDebugCorrectUseReportsNothing(t *testing.T) {
	m := catchMisuse(t)
	var bytesPool reuse.Slices[byte]
	zeroed := reuse.Slices[int]{Zero: true}
	ptrs := reuse.Slices[*int]{Zero: true}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				n := 1 + (i*7+g)%300
				b := bytesPool.Get(n)
				for j := range b {
					b[j] = byte(j)
				}
				b = append(b, "grown past its class"...) // may move to a new array
				bytesPool.Put(b)
				z := zeroed.Get(n)
				for j := range z {
					if z[j] != 0 {
						t.Errorf("Zero pool: element %d = %d, want 0", j, z[j])
						break
					}
					z[j] = j
				}
				zeroed.Put(z)
				p := ptrs.Get(3)
				p[0] = &i
				ptrs.Put(p)
				bytesPool.Put(make([]byte, 10, 37)) // never the pool's, odd capacity
			}
		}()
	}
	wg.Wait()
	reusetest.Collect()
	reusetest.Collect()
	if got := m.all(); len(got) != 0 {
		t.Errorf("correct use reported %d misuses, first:\n%s", len(got), got[0])
	}
}

// dropSlice takes a slice and drops it.
//
//go:noinline
func dropSlice(s *reuse.Slices[int64]) { s.Get(50)[0] = 1 }

// TestSlicesLeakReportedAfterGrace checks that a slice taken and dropped
// outside any test's handler is reported by the ledger's ticks alone, a few
// collections later, and that a slice grown by append and then Put is not.
func TestSlicesLeakReportedAfterGrace(t *testing.T) {
	if !debug.Leaks {
		t.Skip("leak detection is off on this platform")
	}
	m := catchMisuse(t)
	s := new(reuse.Slices[int64])
	dropSlice(s)
	x := s.Get(70)
	for range cap(x) + 1 {
		x = append(x, 1) // replaces the array
	}
	reusetest.Collect()
	reusetest.Collect()
	s.Put(x) // two collections later: still in time
	reusetest.CollectUntil(t, "the slice's leak report", func() bool { return len(m.of(reuse.Leak)) > 0 })
	reusetest.Collect()
	if got := m.of(reuse.Leak); len(got) != 1 || !strings.Contains(got[0].Stacks, "reuse_test.dropSlice") {
		t.Errorf("leak reports %v, want one, naming dropSlice", got)
	}
}
