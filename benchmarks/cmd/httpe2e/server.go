package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	pool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"
	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/bytebuf"
)

// item is one element of a response.
type item struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Score float64  `json:"score"`
	Tags  []string `json:"tags"`
	Note  string   `json:"note,omitempty"`
}

// response is what a handler encodes: the first Count of the items.
type response struct {
	Request int    `json:"request"`
	Items   []item `json:"items"`
}

// body is the data every response is cut from: the items, and, for each
// count k, the length of the encoded response that holds the first k.
type body struct {
	items   []item
	lengths []int // the response lengths, in request order
	sizes   []int // sizes[k]: the bytes of a response of k items, near enough
}

const itemCount = 12000 // the largest response holds them all, a little over 1 MiB

func newBody(median, sigma float64, maxLen int, seed uint64) *body {
	r := rand.New(rand.NewPCG(seed, 6))
	b := &body{items: make([]item, itemCount), sizes: make([]int, itemCount+1)}
	tags := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	b.sizes[0] = len(`{"request":1000000,"items":[]}` + "\n")
	for i := range b.items {
		it := item{ID: i, Name: "item-" + strconv.Itoa(i) + " \"quoted\" <b>", Score: r.Float64() * 1000,
			Tags: tags[:1+r.IntN(len(tags))]}
		if r.IntN(4) == 0 {
			it.Note = strings.Repeat("x", r.IntN(64))
		}
		b.items[i] = it
		enc, _ := json.Marshal(it)
		b.sizes[i+1] = b.sizes[i] + len(enc) + 1
	}
	b.lengths = make([]int, 1<<16)
	for i := range b.lengths {
		b.lengths[i] = max(1, min(maxLen, int(median*math.Exp(sigma*r.NormFloat64()))))
	}
	return b
}

// value returns the response to request i: as many items as come nearest
// to its length.
func (b *body) value(i int) response {
	n := b.lengths[i%len(b.lengths)]
	k := sort.SearchInts(b.sizes, n)
	return response{Request: i, Items: b.items[:min(k, itemCount)]}
}

// encodeFunc encodes v into a buffer from one pool and writes it to w:
// through Bytes when odd is false, through WriteTo when it is true.
type encodeFunc func(w http.ResponseWriter, v *response, odd bool) error

// handOn writes the bytes of a buffer to w, after the Content-Length.
func handOn(w http.ResponseWriter, data []byte) error {
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, err := w.Write(data)
	return err
}

// writeTo is handOn through the buffer's WriteTo.
func writeTo(w http.ResponseWriter, n int, wt io.WriterTo) error {
	w.Header().Set("Content-Length", strconv.Itoa(n))
	_, err := wt.WriteTo(w)
	return err
}

// capped is the capacity above which the capped sync.Pool drops a buffer,
// as fmt does.
const capped = 64 << 10

func syncPoolEncode(encode jsonEncoder, drop bool) encodeFunc {
	p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
	return func(w http.ResponseWriter, v *response, odd bool) error {
		b := p.Get().(*bytes.Buffer)
		b.Reset()
		defer func() {
			if !drop || b.Cap() <= capped {
				p.Put(b)
			}
		}()
		if err := encode(b, v); err != nil {
			return err
		}
		if odd {
			return writeTo(w, b.Len(), b)
		}
		return handOn(w, b.Bytes())
	}
}

// jsonEncoder writes the JSON of a response, and a newline, to a buffer:
// encoding/json's Encoder (-encoder json) or appendEncode (-encoder append).
type jsonEncoder func(w io.Writer, v *response) error

// jsonEncoders are the values of -encoder.
var jsonEncoders = map[string]jsonEncoder{
	"json":   func(w io.Writer, v *response) error { return json.NewEncoder(w).Encode(v) },
	"append": appendEncode,
}

// encoders returns, for each variant, a fresh pool's encodeFunc, which
// writes the JSON with encode.
func encoders(encode jsonEncoder) map[string]func() encodeFunc {
	return map[string]func() encodeFunc{
		// direct is an oracle, not a pool (and not in the default
		// variants): the Encoder writes straight into the ResponseWriter,
		// through net/http's own 4 KiB buffer and chunked, with no
		// Content-Length. It holds no whole response and makes no
		// response-sized garbage: the floor of what any pool's buffers
		// can cost the process.
		"direct": func() encodeFunc {
			return func(w http.ResponseWriter, v *response, _ bool) error { return encode(w, v) }
		},
		"nopool": func() encodeFunc {
			return func(w http.ResponseWriter, v *response, odd bool) error {
				b := new(bytes.Buffer)
				if err := encode(b, v); err != nil {
					return err
				}
				if odd {
					return writeTo(w, b.Len(), b)
				}
				return handOn(w, b.Bytes())
			}
		},
		"syncpool":       func() encodeFunc { return syncPoolEncode(encode, false) },
		"syncpool-64K":   func() encodeFunc { return syncPoolEncode(encode, true) },
		"bytebufferpool": func() encodeFunc { return bytebufferpoolEncode(encode) },
		"libp2p":         func() encodeFunc { return libp2pEncode(encode) },
		"zap":            func() encodeFunc { return zapEncode(encode) },
		"bytebuf":        func() encodeFunc { return bytebufEncode(encode) },
	}
}

func bytebufferpoolEncode(encode jsonEncoder) encodeFunc {
	p := new(bytebufferpool.Pool)
	return func(w http.ResponseWriter, v *response, odd bool) error {
		b := p.Get()
		defer p.Put(b)
		if err := encode(b, v); err != nil {
			return err
		}
		if odd {
			return writeTo(w, b.Len(), b)
		}
		return handOn(w, b.Bytes())
	}
}

func libp2pEncode(encode jsonEncoder) encodeFunc {
	p := new(pool.BufferPool)
	return func(w http.ResponseWriter, v *response, odd bool) error {
		b := &pool.Buffer{Pool: p}
		defer b.Reset() // gives the array back to the pool
		if err := encode(b, v); err != nil {
			return err
		}
		if odd {
			return writeTo(w, b.Len(), b)
		}
		return handOn(w, b.Bytes())
	}
}

func zapEncode(encode jsonEncoder) encodeFunc {
	p := buffer.NewPool()
	return func(w http.ResponseWriter, v *response, _ bool) error {
		b := p.Get()
		defer b.Free()
		if err := encode(b, v); err != nil {
			return err
		}
		return handOn(w, b.Bytes()) // zap's Buffer has no WriteTo
	}
}

func bytebufEncode(encode jsonEncoder) encodeFunc {
	p := new(bytebuf.Pool)
	return func(w http.ResponseWriter, v *response, odd bool) error {
		b := p.Get()
		defer p.Put(b)
		if err := encode(b, v); err != nil {
			return err
		}
		if odd {
			return writeTo(w, b.Len(), b)
		}
		return handOn(w, b.Bytes())
	}
}

// serverStats is what a server reports of itself at /stats.
type serverStats struct {
	VmHWMKiB int64  `json:"vmhwm_kib"` // peak resident set
	VmRSSKiB int64  `json:"vmrss_kib"`
	GCCycles uint64 `json:"gc_cycles"`
	CPUNs    int64  `json:"cpu_ns"` // CPU time used, user and system
	// LiveSum is the sum, over the collections since the server began, of
	// the heap each found live (/gc/heap/live:bytes), and LiveN their
	// number, as far as watchGC saw them.
	LiveSum, LiveN uint64
}

// live holds serverStats' LiveSum and LiveN. The lock makes each count
// one step with the read of the metric it adds: a reader that locks after
// a collection ended sees every count since then read after it.
var live struct {
	sync.Mutex
	sum, n uint64
}

// liveTotals returns live's sum and count.
func liveTotals() (sum, n uint64) {
	live.Lock()
	defer live.Unlock()
	return live.sum, live.n
}

var watchOnce sync.Once

// watchGC adds the live heap of each collection to live, from a finalizer
// that re-arms itself: it runs once after each collection's sweep began,
// with no goroutine polling (which would cost every variant CPU). A
// collection that ends before the finalizer of the one before ran is not
// counted; the mean is over those that are. Only the first call arms it.
func watchGC() {
	watchOnce.Do(func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var rearm func(*[16]byte)
		rearm = func(p *[16]byte) {
			live.Lock()
			metrics.Read(s)
			live.sum += s[0].Value.Uint64()
			live.n++
			live.Unlock()
			runtime.SetFinalizer(p, rearm)
		}
		runtime.SetFinalizer(new([16]byte), rearm)
	})
}

// procStatus returns a "kB" field of /proc/self/status, or -1.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

func readStats() serverStats {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	var ru syscall.Rusage
	var cpu int64
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu = ru.Utime.Nano() + ru.Stime.Nano()
	}
	st := serverStats{VmHWMKiB: procStatus("VmHWM"), VmRSSKiB: procStatus("VmRSS"), GCCycles: s[0].Value.Uint64(), CPUNs: cpu}
	st.LiveSum, st.LiveN = liveTotals()
	return st
}

// handlerWork allocates n bytes (nil for 0), as a handler's own work does
// besides its response, and writes into them so that they are not elided.
// Not inlined: the bytes are on the heap whatever n is, as a handler's are.
//
//go:noinline
func handlerWork(n, i int) []byte {
	if n == 0 {
		return nil
	}
	work := make([]byte, n)
	work[i%n] = byte(i)
	return work
}

// serve runs the server of one variant on a loopback port until its
// standard input closes. It writes the address on standard output first.
func serve(variant string, o options) error {
	newEnc, ok := encoders(jsonEncoders[o.encoder])[variant]
	if !ok {
		return fmt.Errorf("httpe2e: no variant %q", variant)
	}
	var measuring atomic.Bool // between the driver's two reads of /stats
	if o.heapProfiles != "" {
		runtime.MemProfileRate = 2048 // before the body and the pool allocate
		go writeProfiles(o.heapProfiles, variant, &measuring)
	}
	enc := newEnc()
	watchGC()
	b := newBody(o.median, o.sigma, o.maxLen, o.seed)
	mux := http.NewServeMux()
	mux.HandleFunc("/r", func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.URL.Query().Get("i"))
		if err != nil || i < 0 {
			http.Error(w, "bad i", http.StatusBadRequest)
			return
		}
		v := b.value(i)
		work := handlerWork(o.garbage, i)
		w.Header().Set("Content-Type", "application/json")
		enc(w, &v, i%2 == 1) // an error here is the client's going away
		runtime.KeepAlive(work)
	})
	mux.HandleFunc("/stats", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(readStats())
		measuring.Store(!measuring.Load())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	fmt.Println(ln.Addr().String())
	io.Copy(io.Discard, os.Stdin) // the driver closes it when done
	return srv.Close()
}

// writeProfiles writes a heap profile into dir every 400 ms while
// measuring holds: what the last collection found live, by where it was
// allocated (go tool pprof -sample_index=inuse_space).
func writeProfiles(dir, variant string, measuring *atomic.Bool) {
	for i := 0; ; i++ {
		time.Sleep(400 * time.Millisecond)
		if !measuring.Load() {
			continue
		}
		// Written under another name and renamed when whole, so that no
		// reader of dir ever sees a profile half written.
		name := filepath.Join(dir, fmt.Sprintf("%s-%d-%d.pprof", variant, os.Getpid(), i))
		f, err := os.Create(name + ".tmp")
		if err == nil {
			err = cmp.Or(pprof.Lookup("heap").WriteTo(f, 0), f.Close())
		}
		if err == nil {
			err = os.Rename(name+".tmp", name)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "httpe2e:", err)
			return
		}
	}
}
