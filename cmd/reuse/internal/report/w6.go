package report

import (
	"fmt"
	"sync"
	"time"

	"github.com/reuse-go/reuse"
)

// replicatePooled is W6 as the write-up has it: it returns a slice it has
// already put back (pitfall P2).
func replicatePooled(pool *sync.Pool, s string, n int) []string {
	ssp := pool.Get().(*[]string)
	defer pool.Put(ssp)
	ss := (*ssp)[:0]
	for i := 0; i < n; i++ {
		ss = append(ss, s)
	}
	*ssp = ss
	return ss
}

// replicate is W6's baseline: a fresh slice the caller owns.
func replicate(s string, n int) []string {
	ss := make([]string, n)
	for i := range ss {
		ss[i] = s
	}
	return ss
}

func newStringsPool() *sync.Pool {
	return countedPool(func() any { s := make([]string, 0, 8); return &s })
}

var _ = register(w6)

func w6() Def {
	d := Def{
		ID:        "W6",
		Claim:     "A pooled []string makes replicating a string cheaper, if the caller, not a deferred Put, gives it back.",
		Pitfalls:  []string{"P2"},
		Name:      "replicate a string n times",
		Op:        "fill a []string with n copies of a string and return it",
		Published: "n=5: 76.7 ns 1 alloc → 30.6 ns 0 allocs; n=100: 613 ns 1792 B → 250 ns 0 B",
		Detect: func() []Finding {
			pool := newStringsPool()
			return found(DetectUseAfterPut("sync.Pool, defer Put; return *ss", func(s string) []string {
				return replicatePooled(pool, s, 16)
			}, 4, 300*time.Millisecond))
		},
	}
	for _, c := range []struct {
		n         int
		base, got float64
	}{
		{5, 76.7, 30.6},
		{100, 613, 250},
	} {
		n := c.n
		d.Cases = append(d.Cases, CaseDef{
			Name: fmt.Sprintf("n=%d", n),
			Size: n,
			Variants: []VariantDef{
				{Name: "make([]string, n)", Role: RoleBaseline, Published: pub(c.base, -1, 1, 0), New: func() Op {
					return func(see func(any)) error {
						ss := replicate("reuse", n)
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						return nil
					}
				}},
				{Name: "sync.Pool, defer Put", Role: RoleSyncPool, Published: pub(c.got, 0, 0, c.base/c.got), New: func() Op {
					pool := newStringsPool()
					return func(see func(any)) error {
						ss := replicatePooled(pool, "reuse", n)
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						return nil
					}
				}},
				{Name: "sync.Pool, caller Puts", Role: RoleSyncPoolCorrect, New: func() Op {
					pool := newStringsPool()
					return func(see func(any)) error {
						ssp := pool.Get().(*[]string)
						ss := (*ssp)[:0]
						for i := 0; i < n; i++ {
							ss = append(ss, "reuse")
						}
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						*ssp = ss
						pool.Put(ssp)
						return nil
					}
				}},
				{Name: "reuse.Slices, caller Puts", Role: RoleReuse, Published: pub(c.got, 0, 0, c.base/c.got), New: func() Op {
					pool := tracked(new(reuse.Slices[string]))
					return func(see func(any)) error {
						ss := pool.Get(n)
						for i := range ss {
							ss[i] = "reuse"
						}
						sinkStrings = ss
						if see != nil {
							see(ss)
						}
						pool.Put(ss)
						return nil
					}
				}},
			},
		})
	}
	return d
}
