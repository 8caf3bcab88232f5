package main

import (
	"testing"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

// opPeers builds each pool as userview drives it, by name, for BenchmarkOp.
var opPeers = []struct {
	name  string
	bench func(*testing.B, shapes.Shape)
}{
	{"syncpool", func(b *testing.B, s shapes.Shape) { benchOp(b, syncPool(false), s) }},
	{"syncpool-64K", func(b *testing.B, s shapes.Shape) { benchOp(b, syncPool(true), s) }},
	{"bytebufferpool", func(b *testing.B, s shapes.Shape) { benchOp(b, bytebufferpoolPeer(), s) }},
	{"libp2p", func(b *testing.B, s shapes.Shape) { benchOp(b, libp2pPeer(), s) }},
	{"zap", func(b *testing.B, s shapes.Shape) { benchOp(b, zapPeer(), s) }},
	{reference, func(b *testing.B, s shapes.Shape) { benchOp(b, bytebufPeer(), s) }},
}

// benchOp runs userview's op (serial, 4 buffers in flight) b.N times on a
// fresh pool, after one unmeasured run through the shape's lengths.
func benchOp[B any](b *testing.B, im impl[B], s shapes.Shape) {
	w := newWorker(&im, run{shape: s, inFlight: 4}, 0)
	for range shapes.Len {
		w.step()
	}
	b.ResetTimer()
	for range b.N {
		w.step()
	}
	b.StopTimer()
	w.done()
}

// BenchmarkOp is userview's serial op alone, one sub-benchmark per shape
// and pool (BenchmarkOp/lognormal-small/zap), for profilers: scripts/opcost
// counts its instructions per op with callgrind, which, unlike a clock,
// gives the same figure on every run.
func BenchmarkOp(b *testing.B) {
	for _, s := range shapes.All() {
		for _, p := range opPeers {
			b.Run(s.Name+"/"+p.name, func(b *testing.B) { p.bench(b, s) })
		}
	}
}

// TestOpPeersAreUserviews: BenchmarkOp measures every pool userview does,
// under the same names, so that its figures stand beside userview's rows.
func TestOpPeersAreUserviews(t *testing.T) {
	if len(opPeers) != len(peers) {
		t.Fatalf("BenchmarkOp has %d pools, userview %d", len(opPeers), len(peers))
	}
	for i, p := range peers {
		if opPeers[i].name != p.name {
			t.Errorf("pool %d: BenchmarkOp names it %q, userview %q", i, opPeers[i].name, p.name)
		}
	}
	if res := testing.Benchmark(func(b *testing.B) { opPeers[len(opPeers)-1].bench(b, shapes.Suite()[0]) }); res.N == 0 {
		t.Fatal("BenchmarkOp of bytebuf ran no op")
	}
}
