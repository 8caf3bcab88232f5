package report

import (
	"bufio"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// cpuModel returns the processor's model name where the platform says it
// (Linux's /proc/cpuinfo), "" elsewhere.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}

// GC is the garbage collector's setting a run measured under.
type GC struct {
	// GOGC is the collector's target percentage (debug.SetGCPercent); -1
	// is off.
	GOGC int `json:"gogc"`
	// MemLimit is the soft memory limit in bytes (debug.SetMemoryLimit);
	// math.MaxInt64 is none.
	MemLimit int64 `json:"memory_limit"`
	// Ballast is the live heap the run held besides its own, in bytes, in
	// pointer-holding blocks the collector must scan on every cycle.
	Ballast int `json:"ballast"`
	// LiveHeap is the heap in use after a collection at the start, ballast
	// included.
	LiveHeap uint64 `json:"live_heap"`
}

// ballast is a live heap of about n bytes in blocks of pointers, so that
// each collection has that much to mark, as a service's own data gives it.
type ballast [][]*[64]byte

func newBallast(n int) ballast {
	const block = 64 << 10 // bytes per block: 64 KiB of 64-byte objects
	var b ballast
	for left := n; left > 0; left -= block {
		objs := make([]*[64]byte, block/64-1) // the slice itself takes one object's room
		for i := range objs {
			objs[i] = new([64]byte)
		}
		b = append(b, objs)
	}
	return b
}

// setGC applies opt's GC setting (GOGC 100 and no memory limit unless opt
// says otherwise), holds its ballast, and returns the setting in force and
// a function that restores the previous one.
func setGC(opt Options) (GC, func()) {
	g := GC{GOGC: opt.GOGC, MemLimit: opt.MemLimit, Ballast: opt.Ballast}
	if g.GOGC == 0 {
		g.GOGC = 100
	}
	if g.MemLimit == 0 {
		g.MemLimit = math.MaxInt64
	}
	oldPercent := debug.SetGCPercent(g.GOGC)
	oldLimit := debug.SetMemoryLimit(g.MemLimit)
	b := newBallast(g.Ballast)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	g.LiveHeap = ms.HeapAlloc
	return g, func() {
		runtime.KeepAlive(b)
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}
}
