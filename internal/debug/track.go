//go:build reusedebug

package debug

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// snapshotCopyMax is the largest memory Snapshot copies; larger memory is
// hashed, so a change is reported without its offset.
const snapshotCopyMax = 64 << 10

// seal is what Seal recorded about one memory region of an object.
type seal struct {
	set  bool
	addr uintptr // where the memory was; kept as an integer so it pins nothing
	n    int
	sum  uint64 // Snapshot of more than snapshotCopyMax bytes
	copy []byte // Snapshot of at most snapshotCopyMax bytes, reused
}

// record is what the debug build knows about one object.
type record struct {
	key   key
	shard *shard
	obj   uintptr // address, for messages
	in    bool    // put back and not taken out since
	got   bool    // out: taken by the Get in get, not Put or discarded since
	leaks bool    // report a leak if collected while out
	// slice marks an array handed out by a pool of slices, whose leak the
	// ledger of its pool confirms; capBytes is its size.
	slice    bool
	capBytes int
	poolKey  key // the pool of a slice's array, for its ledger
	// scope is the handler in place at the last Get (nil for the
	// default), which owns the report if the object leaks.
	scope *Handler
	// pool is the pool of the last Get or Put, for messages.
	poolType  reflect.Type
	poolAddr  uintptr
	poolLabel string // given with Name
	get, put  stack
	seals     [modes]seal
}

// shard is one part of the table, padded so shards do not share cache lines.
type shard struct {
	mu sync.Mutex // protects m and the records in it
	m  map[key]*record
	_  [128 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(map[key]*record(nil))]byte
}

var shards [64]shard

func shardOf(obj unsafe.Pointer) *shard {
	a := uintptr(obj)
	return &shards[(a>>4^a>>10^a>>16)%uintptr(len(shards))]
}

// lookup returns the record of obj, creating it if needed; s.mu must be held.
func (s *shard) lookup(obj unsafe.Pointer) *record {
	k := keyOf(obj)
	if r := s.m[k]; r != nil {
		return r
	}
	if s.m == nil {
		s.m = make(map[key]*record)
	}
	r := &record{key: k, shard: s, obj: uintptr(obj)}
	s.m[k] = r
	watch(obj, r)
	return r
}

// find returns the record of obj or nil; s.mu must be held.
func (s *shard) find(obj unsafe.Pointer) *record {
	return s.m[keyOf(obj)]
}

func (r *record) setPool(pool any) {
	r.poolType = reflect.TypeOf(pool)
	r.poolAddr = 0
	r.poolLabel = ""
	if v := reflect.ValueOf(pool); v.Kind() == reflect.Pointer {
		r.poolAddr = v.Pointer()
		if l, ok := names.Load(poolKeyOf(pool)); ok {
			r.poolLabel = l.(string)
		}
	}
}

func (r *record) poolName() string {
	switch {
	case r.poolType == nil:
		return "unknown pool"
	case r.poolLabel != "":
		return fmt.Sprintf("%s (pool at %#x)", r.poolLabel, r.poolAddr)
	}
	return fmt.Sprintf("%s at %#x", typeName(r.poolType), r.poolAddr)
}

// typeName is t as a report prints it: as reflect writes it, but with byte
// for uint8, which reflect cannot tell apart ("*reuse.Slices[byte]", as
// most programs declare it). rune stays int32: []int32 is as common.
func typeName(t reflect.Type) string {
	s := t.String()
	var b strings.Builder
	for {
		i := strings.Index(s, "uint8")
		if i < 0 {
			break
		}
		end := i + len("uint8")
		before := i == 0 || !identByte(s[i-1]) && s[i-1] != '.'
		after := end == len(s) || !identByte(s[end]) && s[end] != '.'
		b.WriteString(s[:i])
		if before && after {
			b.WriteString("byte")
		} else {
			b.WriteString("uint8")
		}
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

// identByte reports whether c may be part of a Go identifier or of an
// import path element (a type of package example.com/uint8x).
func identByte(c byte) bool {
	return c == '_' || c == '-' || c == '/' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// names holds the names given with Name, by pool.
var names sync.Map // key -> string

// Name gives pool, a pointer, the name its reports use: the type its
// callers hold ("gzpool.Writer") where the pool's own type is an internal
// one (*reuse.Pool[*codec.wentry]).
func Name(pool any, name string) { names.Store(poolKeyOf(pool), name) }

// Live is called first thing by the methods of a pooled object whose
// caller holds it between Get and Put (a bytebuf.Buffer): if the object
// was put back and not taken out since, the call is a use after Put,
// reported at once, on the caller's goroutine, naming the method. A nil obj
// is a method called on a nil receiver: Live panics naming the method the
// caller called ("bytebuf: Buffer.Write: nil *Buffer"), where the normal
// build, without a check on its hot path, dereferences nil.
func Live(obj unsafe.Pointer) {
	if obj == nil {
		var now stack
		now.capture()
		panic(nilReceiver(now.api()))
	}
	s := shardOf(obj)
	s.mu.Lock()
	r := s.find(obj)
	if r == nil || !r.in {
		s.mu.Unlock()
		return
	}
	rep := r.sincePut(UseAfterPut, r.poolName(), "use", "Put", func(now *stack) string {
		return fmt.Sprintf("%s called at %s on object %#x, which was put back at %s and not taken out since", now.api(), now.site(), r.obj, r.put.site())
	})
	s.mu.Unlock()
	send(rep)
}

// sincePut is the report of a call on r's object, which was put back and
// not taken out since: the call's stack, labelled label, and the Put's,
// labelled putLabel; detail is given the call's stack. The caller holds
// r's shard's lock.
func (r *record) sincePut(kind Kind, pool, label, putLabel string, detail func(now *stack) string) Report {
	var now stack
	now.capture()
	var b strings.Builder
	now.format(&b, label)
	r.put.format(&b, putLabel)
	return Report{Kind: kind, Pool: pool, Detail: detail(&now), Site: now.site(), Stacks: b.String()}
}

// Put is called first thing in a pool's Put with the object's identity: a
// pointer to it, or to its first element for a slice. It records the Put and
// returns true, or reports a double Put and returns false, in which case the
// pool must not store the object. A nil obj is not tracked.
func Put(pool any, obj unsafe.Pointer) bool {
	ok, _ := put(pool, obj)
	return ok
}

// put is Put, and reports whether obj was out: taken by a Get and not given
// back or discarded since.
func put(pool any, obj unsafe.Pointer) (ok, wasOut bool) {
	if obj == nil {
		return true, false
	}
	s := shardOf(obj)
	s.mu.Lock()
	r := s.lookup(obj)
	if r.in {
		rep := r.sincePut(DoublePut, poolName(pool), "second Put", "first Put", func(now *stack) string {
			return fmt.Sprintf("object %#x was put back at %s and not taken out since; put again at %s (not stored again)", r.obj, r.put.site(), now.site())
		})
		s.mu.Unlock()
		send(rep)
		return false, false
	}
	wasOut = r.got
	r.in = true
	r.got = false
	r.setPool(pool)
	r.put.capture()
	s.mu.Unlock()
	return true, wasOut
}

// PutSlice is Put for the array of a slice of capBytes bytes given to a pool
// of slices. An array that the pool did not hand out (grown by append, or
// made by the caller) may replace one that did, whose collection then is
// not a leak: it is credited to the pool's ledger.
func PutSlice(pool any, obj unsafe.Pointer, capBytes int) bool {
	ok, wasOut := put(pool, obj)
	if ok && !wasOut && obj != nil {
		ledgerForeignPut(poolKeyOf(pool), capBytes)
	}
	return ok
}

// GotSlice is Got for the array of a slice of capBytes bytes handed out by
// a pool of slices: its leak is reported once the pool's ledger rules out
// that append replaced it (see PutSlice).
func GotSlice(pool any, obj unsafe.Pointer, capBytes int) {
	if obj == nil {
		return
	}
	got(pool, obj, Leaks, capBytes)
}

// poolKeyOf identifies a pool, given as a pointer, without keeping it
// alive: a pool allocated later at the same address has another key.
func poolKeyOf(pool any) key {
	return keyOf(reflect.ValueOf(pool).UnsafePointer())
}

// Got is called by a pool's Get with the object it is about to return. When
// leaks is true, the object is reported if it is collected before the next
// Put; pass false where the object's identity does not survive correct use (a
// slice that may grow and be replaced before it is put back).
func Got(pool any, obj unsafe.Pointer, leaks bool) {
	if obj == nil {
		return
	}
	got(pool, obj, leaks, -1)
}

// got is Got, for a slice's array of capBytes when capBytes >= 0.
func got(pool any, obj unsafe.Pointer, leaks bool, capBytes int) {
	s := shardOf(obj)
	s.mu.Lock()
	r := s.lookup(obj)
	r.in = false
	r.got = true
	r.leaks = leaks
	r.slice = capBytes >= 0
	r.capBytes = capBytes
	if r.slice {
		r.poolKey = poolKeyOf(pool)
	}
	r.scope = handler.Load()
	r.setPool(pool)
	r.get.capture()
	s.mu.Unlock()
}

// Discard is called by a pool's Discard with an object its caller gives up
// on purpose: the object is no longer out, so it is not reported as a leak
// when collected. Discarding an object that was put back and not taken out
// since is reported as a double Put: the pool may hand it out again.
func Discard(pool any, obj unsafe.Pointer) {
	if obj == nil {
		return
	}
	s := shardOf(obj)
	s.mu.Lock()
	r := s.find(obj)
	if r == nil {
		s.mu.Unlock()
		return
	}
	if r.in {
		rep := r.sincePut(DoublePut, poolName(pool), "Discard", "Put", func(now *stack) string {
			return fmt.Sprintf("object %#x was put back at %s and not taken out since; discarded at %s (the pool may still hand it out)", r.obj, r.put.site(), now.site())
		})
		s.mu.Unlock()
		send(rep)
		return
	}
	r.got = false
	r.scope = nil
	s.mu.Unlock()
}

// Seal protects mem, memory of the object obj that the pool is about to
// store, until Check: see Mode. Call it after Put returned true, after any
// reset, right before storing.
func Seal(obj unsafe.Pointer, mem []byte, mode Mode) {
	if obj == nil {
		return
	}
	s := shardOf(obj)
	s.mu.Lock()
	r := s.lookup(obj)
	sl := &r.seals[mode]
	sl.set = true
	sl.addr = uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	sl.n = len(mem)
	switch mode {
	case Poison:
		fill(mem)
	case Snapshot:
		if len(mem) <= snapshotCopyMax {
			sl.copy = append(sl.copy[:0], mem...)
			sl.sum = 0
		} else {
			sl.copy = nil
			sl.sum = maphash.Bytes(seed, mem)
		}
	}
	s.mu.Unlock()
}

var seed = maphash.MakeSeed()

// fill writes Pattern over mem.
func fill(mem []byte) {
	if len(mem) == 0 {
		return
	}
	n := copy(mem, Pattern[:])
	for n < len(mem) {
		n += copy(mem[n:], mem[:n])
	}
}

// poisoned returns the offset of the first byte of mem that is not the
// pattern, or -1.
func poisoned(mem []byte) int {
	var block [256]byte
	fill(block[:])
	for off := 0; off < len(mem); off += len(block) {
		chunk := mem[off:min(off+len(block), len(mem))]
		if !bytes.Equal(chunk, block[:len(chunk)]) {
			for i := range chunk {
				if chunk[i] != block[i] {
					return off + i
				}
			}
		}
	}
	return -1
}

// Check is called by a pool's Get, after Got, with the memory it gave Seal as
// it is now. It reports a use after Put when the memory changed since Seal,
// or moved (the object's slice was replaced after Put). It does nothing for
// an object never sealed in this mode, such as one just made by New.
func Check(pool any, obj unsafe.Pointer, mem []byte, mode Mode) {
	if obj == nil {
		return
	}
	s := shardOf(obj)
	s.mu.Lock()
	r := s.find(obj)
	if r == nil || !r.seals[mode].set {
		s.mu.Unlock()
		return
	}
	sl := &r.seals[mode]
	sl.set = false
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	detail := ""
	switch {
	case addr != sl.addr || len(mem) > sl.n:
		// A pool may hand out less than it was given (a class smaller than
		// the capacity put back), never more or elsewhere.
		detail = fmt.Sprintf("its memory was replaced after Put (%d bytes at %#x at Put, %d bytes at %#x now): it was grown or reassigned after it was given back", sl.n, sl.addr, len(mem), addr)
	case mode == Poison:
		if i := poisoned(mem); i >= 0 {
			detail = fmt.Sprintf("byte %d of %d was written after Put (poison %#02x overwritten with %#02x)", i, len(mem), Pattern[i%len(Pattern)], mem[i])
		}
	case sl.copy != nil || sl.n == 0:
		if i := firstDiff(sl.copy[:len(mem)], mem); i >= 0 {
			detail = fmt.Sprintf("byte %d of its %d bytes changed after Put (%#02x at Put, %#02x now)", i, len(mem), sl.copy[i], mem[i])
		}
	case len(mem) == sl.n: // a hash covers the whole memory only
		if maphash.Bytes(seed, mem) != sl.sum {
			detail = fmt.Sprintf("its %d bytes changed after Put", len(mem))
		}
	}
	if detail == "" {
		s.mu.Unlock()
		return
	}
	var now stack
	now.capture()
	var b strings.Builder
	r.put.format(&b, "Put")
	now.format(&b, "next Get")
	rep := Report{
		Kind:   UseAfterPut,
		Pool:   poolName(pool),
		Detail: fmt.Sprintf("object %#x: %s; put back at %s, next taken at %s", r.obj, detail, r.put.site(), now.site()),
		Site:   now.site(),
		Stacks: b.String() + "(the write happened between these two calls, by code still holding the object after Put)\n",
	}
	s.mu.Unlock()
	send(rep)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func poolName(pool any) string {
	var r record
	r.setPool(pool)
	return r.poolName()
}

// Tracked returns how many objects have records: a test hook to check that
// records go away with their objects.
func Tracked() int {
	n := 0
	for i := range shards {
		s := &shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}

// send delivers r to the handler, or, without one, does what REUSEDEBUG
// says: by default, panics for a double Put or a use after Put, logs a leak.
func send(r Report) {
	if h := handler.Load(); h != nil {
		h.F(r)
		return
	}
	Fallback(r)
}

// nilReceiver is the message of a nil receiver's panic for api, the method
// called ("bytebuf: Buffer.Write"): "bytebuf: Buffer.Write: nil *Buffer".
func nilReceiver(api string) string {
	_, method, ok := strings.Cut(api, ": ")
	typ, _, dot := strings.Cut(method, ".")
	if !ok || !dot {
		return "debug: Live: nil object, called from outside the module"
	}
	return api + ": nil *" + typ
}
