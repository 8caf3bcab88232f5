package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
)

// ErrNotHeap is returned for a profile without allocation samples.
var ErrNotHeap = errors.New("not a heap profile: no alloc_space and alloc_objects samples")

// Options tune the advice.
type Options struct {
	// BreakEven is the object size, in bytes, at or below which allocating
	// is as cheap as pooling (objects of up to 16 B come from Go's tiny
	// allocator, 16 to a block) (the report's B1 curve measures it: go run
	// ./cmd/reuse -filter B1).
	BreakEven float64
	// OneTime is the number of objects at or below which a site counts as
	// a one-time allocation, which a pool would never hand out again.
	OneTime float64
	// Minor is the share of all allocated bytes below which a site is too
	// small to matter; such sites are counted, not listed.
	Minor float64
	// Modules are the import paths of the user's own code (their modules'
	// paths): a site is the first frame of the user's code on an
	// allocating stack, package main always included, so that advice
	// names a line the user can change, not one inside a library. The
	// command takes the module of go.mod in its working directory, unless
	// that is one of reuse's (see Infer).
	Modules []string
	// Infer, where Modules is empty, infers the user's code from the
	// profile: package main, and every package outside the standard
	// library and reuse (github.com/reuse-go/reuse and its nested
	// modules) whose source file is not in a versioned module, that is
	// neither in the module cache nor vendored (a path with "@v", as the
	// module cache and -trimpath name the files of a required module, or
	// with a vendor directory; a module replaced by a local directory
	// counts as the user's). The command infers so when it runs in
	// reuse's own clone, where the working directory's module is reuse's.
	Infer bool
}

// DefaultOptions are the options of the command without flags.
func DefaultOptions() Options { return Options{BreakEven: 16, OneTime: 3, Minor: 0.005} }

// Advice is the result of Analyze.
type Advice struct {
	TotalBytes   float64 `json:"total_bytes"`   // allocated over the profile's life
	TotalObjects float64 `json:"total_objects"` // likewise
	BreakEven    float64 `json:"break_even_bytes"`
	// Yours says which code the advice takes for the user's, and how it
	// was chosen (set by the command); Packages lists the packages of the
	// user's sites found in the profile.
	Yours    string   `json:"yours,omitempty"`
	Packages []string `json:"your_packages"`
	// Pool lists the sites worth pooling, most bytes first; Skip the heavy
	// sites that are not, with the reason.
	Pool []Site `json:"pool"`
	Skip []Site `json:"skip"`
	// Minor counts the sites under Options.Minor of all bytes.
	Minor int `json:"minor_sites"`
}

// Site is one allocation site: the first function of the user's code (see
// Options.Modules) on the allocating stacks, at one line, or where no
// frame is the user's, the first outside the standard library and the
// runtime.
type Site struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int64  `json:"line"`
	// Inside is the first frame outside the standard library under the
	// site, where that is a library's (reuse's, or another module's): the
	// code that allocates, which the user cannot change. "" when the site
	// allocates through the standard library alone.
	Inside  string   `json:"inside,omitempty"`
	Kind    string   `json:"kind"` // what is allocated, inferred from the stack and sizes
	Bytes   float64  `json:"bytes"`
	Objects float64  `json:"objects"`
	Share   float64  `json:"share"` // of all bytes allocated
	MinSize float64  `json:"min_size"`
	MaxSize float64  `json:"max_size"`
	AvgSize float64  `json:"avg_size"`
	Sizes   int      `json:"distinct_sizes"`
	Use     string   `json:"use,omitempty"`   // the reuse type or function to use
	Bound   string   `json:"bound,omitempty"` // the bound to give it
	Saving  string   `json:"saving,omitempty"`
	Why     string   `json:"why,omitempty"` // why not to pool, for a skipped site
	Stack   []string `json:"stack"`         // the frames under the site, leaf first
}

// site accumulates the samples of one site.
type site struct {
	Site
	sizes      map[float64]float64 // object size → objects
	heaviest   float64
	heavyChain []string
	// chain is heavyChain, or where no frame is the user's, the whole
	// stack: the frames between the allocation and the user's code.
	chain []string
	user  bool // the site is a frame of the user's code
	addr  uint64
	// nth of of: the sites at this line, by address
	nth, of int
}

// Analyze ranks the allocation sites of a heap profile.
func Analyze(p *profile.Profile, opt Options) (Advice, error) {
	ib, io := -1, -1
	for i, st := range p.SampleType {
		switch st.Type {
		case "alloc_space":
			ib = i
		case "alloc_objects":
			io = i
		}
	}
	if ib < 0 || io < 0 {
		return Advice{}, ErrNotHeap
	}
	a := Advice{BreakEven: opt.BreakEven, Pool: []Site{}, Skip: []Site{}, Packages: []string{}}
	sites := map[string]*site{}
	for _, s := range p.Sample {
		bytes, objects := float64(s.Value[ib]), float64(s.Value[io])
		if bytes == 0 {
			continue
		}
		a.TotalBytes += bytes
		a.TotalObjects += objects
		add(sites, s, bytes, objects, opt)
	}
	lineSites(sites)
	for _, st := range sites {
		if st.user && !slices.Contains(a.Packages, pkgOf(st.Function)) {
			a.Packages = append(a.Packages, pkgOf(st.Function))
		}
		st.finish(a.TotalBytes)
		if st.Share < opt.Minor {
			a.Minor++
			continue
		}
		if st.classify(opt) {
			a.Pool = append(a.Pool, st.Site)
		} else {
			a.Skip = append(a.Skip, st.Site)
		}
	}
	sort.Strings(a.Packages)
	for _, l := range [][]Site{a.Pool, a.Skip} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Bytes > l[j].Bytes })
	}
	return a, nil
}

// lineSites numbers the sites that share a line (calls at different
// addresses, with the same code under them): each is told apart from the
// others, and says so (site.of, site.nth).
func lineSites(sites map[string]*site) {
	byLine := map[string][]*site{}
	for _, st := range sites {
		if st.File != "" {
			k := fmt.Sprintf("%s:%d %s", st.Function, st.Line, st.Inside)
			byLine[k] = append(byLine[k], st)
		}
	}
	for _, l := range byLine {
		sort.Slice(l, func(i, j int) bool { return l[i].addr < l[j].addr })
		for i, st := range l {
			st.nth, st.of = i+1, len(l)
		}
	}
}

// add adds a sample to its site, making the site at its first sample. The
// site is the first frame of the user's code from the leaf; the frames
// under it are its chain, and the first of those outside the standard
// library, if any, is where it allocates inside a library.
func add(sites map[string]*site, s *profile.Sample, bytes, objects float64, opt Options) {
	frames := expand(s.Location)
	at := slices.IndexFunc(frames, opt.user)
	if at < 0 {
		at = slices.IndexFunc(frames, func(f frame) bool { return !isStd(f.fn) })
	}
	var chain []string
	st := &site{}
	key := noSite
	inside := ""
	if at >= 0 {
		if i := slices.IndexFunc(frames[:at], func(f frame) bool { return !isStd(f.fn) }); i >= 0 {
			inside = frames[i].fn
		}
		// The call's address is part of the key: two allocations on one
		// line (a literal and an append) are two calls, of different
		// kinds, and must not be one site.
		key = fmt.Sprintf("%s:%d@%x %s", frames[at].fn, frames[at].line, frames[at].addr, inside)
	} else {
		at = len(frames)
	}
	for _, f := range frames[:at] {
		chain = append(chain, f.fn)
	}
	if x, ok := sites[key]; ok {
		st = x
	} else {
		st.sizes = map[float64]float64{}
		st.Function = key
		if at < len(frames) {
			st.Function, st.File, st.Line, st.Inside = frames[at].fn, frames[at].file, frames[at].line, inside
			st.user = opt.user(frames[at])
			st.addr = frames[at].addr
		}
		sites[key] = st
	}
	st.Bytes += bytes
	st.Objects += objects
	size := bytes / math.Max(objects, 1)
	if v := s.NumLabel["bytes"]; len(v) > 0 {
		size = float64(v[0])
	}
	st.sizes[size] += objects
	if bytes > st.heaviest {
		st.heaviest, st.heavyChain, st.chain = bytes, chain, chain
		if !st.user {
			st.chain = nil
			for _, f := range frames {
				st.chain = append(st.chain, f.fn)
			}
		}
	}
}

// reusePath is the import path of the reuse module, whose packages pool
// what they allocate: a site inside them is not the user's to pool.
const reusePath = "github.com/reuse-go/reuse"

// user reports whether f is the user's code: package main, or a package
// of one of the modules, or with Infer, code outside the standard library,
// reuse and the versioned modules (see Options.Infer).
func (o Options) user(f frame) bool {
	pkg := pkgOf(f.fn)
	if pkg == "main" || pkg == "command-line-arguments" {
		return true
	}
	if len(o.Modules) == 0 && o.Infer {
		return !isStd(f.fn) && !IsReuseModule(pkg) && !versioned(f.file)
	}
	for _, m := range o.Modules {
		if m != "" && (pkg == m || strings.HasPrefix(pkg, m+"/")) {
			return true
		}
	}
	return false
}

// IsReuseModule reports whether the import path path is in reuse's
// module or one of its nested modules.
func IsReuseModule(path string) bool {
	return path == reusePath || strings.HasPrefix(path, reusePath+"/")
}

// versioned reports whether file is a file of a required module's version
// (in the module cache, or named module@version by -trimpath) or a
// vendored one: not the user's to change.
func versioned(file string) bool {
	file = filepath.ToSlash(file)
	return strings.Contains(file, "@v") || strings.Contains(file, "/vendor/")
}

// isReuse reports whether fn is in a library package of the reuse module
// or its nested modules: not in one of its programs (cmd, examples,
// benchmarks, ports, tools), which use the pools as any program does.
func isReuse(fn string) bool {
	pkg := pkgOf(fn)
	if pkg != reusePath && !strings.HasPrefix(pkg, reusePath+"/") {
		return false
	}
	for _, d := range []string{"/benchmarks", "/cmd", "/examples", "/ports", "/tools"} {
		if rest := strings.TrimPrefix(pkg, reusePath); rest == d || strings.HasPrefix(rest, d+"/") {
			return false
		}
	}
	return true
}

// pkgOf returns the import path of the package of the function fn.
func pkgOf(fn string) string {
	pkg, _, _ := strings.Cut(fn, "[") // type arguments name other packages
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		if j := strings.Index(pkg[i:], "."); j >= 0 {
			pkg = pkg[:i+j]
		}
	} else if j := strings.Index(pkg, "."); j >= 0 {
		pkg = pkg[:j]
	}
	return pkg
}

type frame struct {
	fn   string
	file string
	line int64
	addr uint64 // of the call, which tells apart the calls on one line
}

// expand lists a sample's frames leaf first, inlined calls included.
func expand(locs []*profile.Location) []frame {
	var out []frame
	for _, l := range locs {
		for _, ln := range l.Line {
			if ln.Function != nil {
				out = append(out, frame{ln.Function.Name, ln.Function.Filename, ln.Line, l.Address})
			}
		}
	}
	return out
}

// noSite is the site of the samples with no frame outside the runtime and
// the standard library.
const noSite = "(runtime)"

// isStd reports whether a function belongs to the runtime or the standard
// library: its package path's first element has no dot, and it is not a
// main package.
func isStd(fn string) bool {
	pkg := pkgOf(fn)
	first, _, _ := strings.Cut(pkg, "/")
	return !strings.Contains(first, ".") && pkg != "main" && pkg != "command-line-arguments"
}

// finish computes the sizes and share.
func (s *site) finish(total float64) {
	s.Stack = s.heavyChain
	s.Share = s.Bytes / math.Max(total, 1)
	s.AvgSize = s.Bytes / math.Max(s.Objects, 1)
	s.MinSize, s.MaxSize = math.Inf(1), 0
	for size, n := range s.sizes {
		if n > 0 {
			s.MinSize, s.MaxSize = math.Min(s.MinSize, size), math.Max(s.MaxSize, size)
			s.Sizes++
		}
	}
	if math.IsInf(s.MinSize, 1) {
		s.MinSize = 0
	}
}

// has reports whether any frame under the site contains one of names.
func (s *site) has(names ...string) bool {
	for _, f := range s.Stack {
		for _, n := range names {
			if strings.Contains(f, n) {
				return true
			}
		}
	}
	return false
}

// leaf is the innermost frame, "" when there is none.
func (s *site) leaf() string {
	if len(s.Stack) == 0 {
		return ""
	}
	return s.Stack[0]
}

// classify names what the site allocates and the reuse type for it, and
// reports whether it is worth pooling; when not, Why says why.
func (s *site) classify(opt Options) bool {
	if s.Function == noSite {
		s.Why = "no frame of your code or of another module is on these stacks: the runtime or the standard library allocates for itself"
		if s.has("runtime.malg") {
			s.Why += ", mostly a new goroutine for each go statement (runtime.malg); no pool hands that out, a fixed set of worker goroutines does where starting them is the cost"
		}
		return false
	}
	if s.jsonState() || s.jsonValues() {
		return false
	}
	ok := s.kind()
	if s.of > 1 {
		s.Kind += fmt.Sprintf(" (%d of %d allocations at this line, told apart by their calls' addresses)", s.nth, s.of)
	}
	if s.inReuse() {
		s.Use, s.Bound = "", ""
		return false
	}
	if !ok {
		return false
	}
	switch {
	case s.Objects <= opt.OneTime:
		s.Why = fmt.Sprintf("one-time allocation: %s in %.0f objects over the whole profile; a pool would never hand it out again", size(s.Bytes), s.Objects)
	case s.AvgSize < opt.BreakEven+1 && !s.codec():
		s.Why = fmt.Sprintf("objects of %s on average, at or below the break-even of %s: allocating them is as cheap as pooling (pitfall P8)", size(s.AvgSize), size(opt.BreakEven))
	default:
		s.Saving = fmt.Sprintf("up to %s and %s allocations over the profile (%.0f%% of all bytes allocated): a pool hands the memory back instead", size(s.Bytes), count(s.Objects), 100*s.Share)
		return true
	}
	s.Use, s.Bound = "", ""
	return false
}

func (s *site) codec() bool { return strings.HasPrefix(s.Kind, "compress/") }

// inReuse reports whether the site allocates inside the reuse module, and
// sets Why: reuse pools what it allocates there already, within its
// bounds, so there is nothing for the caller to pool.
func (s *site) inReuse() bool {
	inner, outer := "", ""
	for _, f := range s.chain {
		if isReuse(f) {
			if inner == "" {
				inner = f // the first from the leaf: where reuse calls the allocation
			}
			outer = f // the last: the call the user made
		}
	}
	if outer == "" {
		return false
	}
	name := func(f string) string { return strings.TrimPrefix(f, reusePath+"/") }
	via := "reuse's " + name(inner)
	if outer != inner {
		via += " (called through " + name(outer) + ")"
	}
	few := ""
	if s.Objects <= 64 {
		few = fmt.Sprintf("; %.0f objects over the whole profile: made once and reused, not hot", s.Objects)
	}
	defer func() {
		if s.user {
			s.Why += fmt.Sprintf("; the call of yours that leads there is %s (%s:%d)", s.Function, filepath.Base(s.File), s.Line)
		} else {
			s.Why += "; no call of your code leads there"
		}
	}()
	switch {
	case slices.ContainsFunc(s.chain, func(f string) bool { return strings.HasPrefix(f, reusePath+".(*Pool[") && strings.Contains(f, ").Get") }):
		s.Why = fmt.Sprintf("made by a reuse pool, under %s, when it had none to give: already pooled%s", via, few)
	case s.Inside != "" && !isReuse(s.Inside):
		s.Why = fmt.Sprintf("allocated by %s under %s, which decides what it pools there%s; nothing here for the caller to pool", s.Inside, via, few)
	default:
		s.Why = fmt.Sprintf("allocated inside %s, which pools what it keeps within its bounds and lets larger sizes go (pitfall P7)%s; nothing here for the caller to pool", via, few)
	}
	return true
}

// jsonValues reports whether the site's memory is what encoding/json
// decodes into the caller's value, and sets Why: the strings, slices and
// maps belong to the value, and no pool can hand them back while it holds
// them. (A json.Decoder's own read buffer is not under decodeState:
// jsonpool.Decode pools that one.)
func (s *site) jsonValues() bool {
	if !slices.ContainsFunc(s.Stack, func(f string) bool { return strings.HasPrefix(f, "encoding/json.(*decodeState)") }) {
		return false
	}
	s.Kind = "encoding/json's decoding into the caller's value"
	s.Why = "the strings, slices and maps encoding/json makes for the value it decodes into belong to that value: no pool can hand them back while it holds them (jsonpool.Values[T] pools the top-level T)"
	return true
}

// jsonState reports whether the site's memory is encoding/json's own
// encode buffer, and sets Why: encoding/json pools it in a sync.Pool of
// its own, which collections empty, and no encoding/json API lets the
// caller supply it (jsonpool's documentation, "With bytebuf").
func (s *site) jsonState() bool {
	i := slices.IndexFunc(s.Stack, func(f string) bool { return strings.HasPrefix(f, "encoding/json.(*encodeState)") })
	if i < 0 || !slices.ContainsFunc(s.Stack[:i], func(f string) bool { return strings.HasPrefix(f, "bytes.") }) {
		return false
	}
	s.Kind = "encoding/json's own encode buffer"
	s.Why = "encoding/json marshals into a buffer of its own, which it pools itself and makes again after a collection empties its pool; no encoding/json API takes the caller's buffer, so neither jsonpool nor a pool of yours can take it over"
	return true
}

// kind infers what is allocated and the reuse type to use from the stack
// and the sizes. It returns false for what reuse cannot pool, with Why set.
func (s *site) kind() bool {
	// A gzip or zlib writer makes its flate compressor at the first Write,
	// so the stack shows flate.NewWriter under the gzip or zlib frames.
	codecs := []struct{ wrapper, ctor, kind, use, bound string }{
		{"compress/gzip.", "compress/flate.NewWriter", "compress/gzip writer", "gzpool.Compress(dst, src, level)", "one pooled writer per level in use (about 800 KB each)"},
		{"compress/zlib.", "compress/flate.NewWriter", "compress/zlib writer", "zlibpool.Compress(dst, src, level)", "one pooled writer per level in use"},
		{"compress/gzip.", "compress/gzip.NewReader", "compress/gzip reader", "gzpool.Decompress(dst, src, limit)", "a limit on the decompressed size"},
		{"compress/gzip.", "compress/gzip.(*Reader)", "compress/gzip reader", "gzpool.Decompress(dst, src, limit)", "a limit on the decompressed size"},
		{"compress/zlib.", "compress/zlib.NewReader", "compress/zlib reader", "zlibpool.Decompress(dst, src, limit)", "a limit on the decompressed size"},
		{"compress/flate.", "compress/flate.NewWriter", "compress/flate writer", "flatepool.Compress(dst, src, level)", "one pooled writer per level in use"},
		{"compress/flate.", "compress/flate.NewReader", "compress/flate reader", "flatepool.Decompress(dst, src, limit)", "a limit on the decompressed size"},
	}
	for _, c := range codecs {
		if s.has(c.wrapper) && s.has(c.ctor) {
			s.Kind, s.Use, s.Bound = c.kind, c.use, c.bound
			return true
		}
	}
	if s.stdKind() {
		return true
	}
	return s.allocKind()
}

// stdKind recognises what the standard library allocates on the site's
// behalf and has a pooled form in reuse.
func (s *site) stdKind() bool {
	switch {
	case s.has("bufio.NewReader"):
		s.Kind, s.Use, s.Bound = "bufio.Reader", "bufiopool.NewReader(r, size), Close to give it back", fmt.Sprintf("size %s", size(s.MaxSize))
	case s.has("bufio.NewWriter"):
		s.Kind, s.Use, s.Bound = "bufio.Writer", "bufiopool.NewWriter(w, size), Close to give it back", fmt.Sprintf("size %s", size(s.MaxSize))
	case s.bufferKind():
	case s.has("encoding/json.Marshal", "encoding/json.(*Encoder)", "encoding/json.NewEncoder"):
		s.Kind = "encoding/json encoding"
		s.Use = "jsonpool.Append(dst, v) into a pooled slice (dst from a reuse.Slices[byte], given back after the write), or jsonpool.Encode(w, v) where w is the destination itself (a connection or a file, not a buffer)"
	case s.has("encoding/json.Unmarshal", "encoding/json.(*Decoder)", "encoding/json.NewDecoder"):
		s.Kind, s.Use, s.Bound = "encoding/json decoding", "jsonpool.Decode(r, v, limit), or jsonpool.Values[T] for the values", "a limit on the input size"
	case s.has("io.copyBuffer") && !s.has("io.CopyBuffer"):
		s.Kind, s.Use, s.Bound = "io.Copy's 32 KiB buffer", "io.CopyBuffer(dst, src, buf) with buf from a reuse.Slices[byte]", "32 KiB"
	case s.has("io.ReadAll"):
		s.Kind, s.Use = "io.ReadAll growth", "bytebuf.Pool: buf.ReadFrom(r) into a pooled Buffer, or reuse.Slices[byte] and an append loop"
		s.Bound = fmt.Sprintf("MaxCap %s or more: the largest read here is %s", size(ceilPow2(s.MaxSize)), size(s.MaxSize))
	default:
		return false
	}
	return true
}

// bufferKind recognises a bytes.Buffer of the site's own that grows: the
// memory is the buffer's, whoever writes into it (the site, or a function
// it hands the buffer to, such as json.(*Encoder).Encode or fmt.Fprintf),
// so the advice is a pooled buffer, not a pooled form of the writer. The
// buffers encoding/json keeps inside its own encodeState are not the
// site's.
func (s *site) bufferKind() bool {
	i := slices.IndexFunc(s.Stack, func(f string) bool { return f == "bytes.growSlice" || f == "bytes.(*Buffer).grow" })
	if i < 0 {
		return false
	}
	for i < len(s.Stack) && strings.HasPrefix(s.Stack[i], "bytes.") {
		i++
	}
	writer := ""
	if i < len(s.Stack) {
		writer = s.Stack[i]
	}
	if strings.HasPrefix(writer, "encoding/json.(*encodeState)") {
		return false
	}
	s.Kind, s.Use = "bytes.Buffer growth", "bytebuf.Pool (Get, write, Put)"
	if writer != "" {
		s.Kind += ": the site's own buffer, written by " + writer
		s.Use = "bytebuf.Pool: Get a Buffer, let " + writer + " write into it, write it out, Put it"
	}
	if strings.HasPrefix(writer, "encoding/json.") {
		s.Use += "; or jsonpool.Append(dst, v) into a pooled slice (dst from a reuse.Slices[byte], given back after the write)"
	}
	s.Bound = fmt.Sprintf("bytebuf.Config{MaxCap: %s} or more: the largest buffer seen grew to %s", size(ceilPow2(s.MaxSize)), size(s.MaxSize))
	return true
}

// allocKind names what the site allocates itself, or what reuse cannot
// pool, with Why set and false returned.
func (s *site) allocKind() bool {
	switch {
	case s.has("strings.(*Builder)", "runtime.concatstring", "runtime.slicebytetostring", "runtime.rawstring", "strconv."):
		s.Kind = "strings"
		s.Why = "strings: a string is handed out as a value and can never be given back; build into a pooled bytebuf.Buffer and write it out instead"
		return false
	case s.has("runtime.makemap", "runtime.mapassign", "runtime.hashGrow", "internal/runtime/maps."):
		s.Kind = "map"
		s.Why = "maps: reuse does not pool them; keep the map and clear() it between uses"
		return false
	case s.has("runtime.makeslice", "runtime.growslice", "runtime.makeslicecopy"):
		s.sliceKind(slices.DeleteFunc(s.matchAlloc(), func(a alloc) bool { return !a.slice }))
	case s.onlyRuntime():
		// Heap profiles leave out the runtime's allocation frames: an
		// allocation made by the site itself shows no frame under it.
		// The expressions at its line whose sizes match it say what it
		// is; without them, only the sizes tell a slice of varying
		// length from an object of one type.
		m := s.matchAlloc()
		objs := slices.DeleteFunc(slices.Clone(m), func(a alloc) bool { return a.slice })
		switch {
		case len(m) > 0 && len(objs) == 0, len(m) == 0 && s.Sizes > 1:
			s.sliceKind(m)
		case len(objs) == 1 && len(m) == 1:
			s.Kind = fmt.Sprintf("%s, fixed size %s: %s", objs[0].what, size(s.MaxSize), objs[0].expr)
			s.Use, s.Bound = fmt.Sprintf("reuse.Pool[*%s] with New and Reset", objs[0].elem), "Reset must clear every field (pitfall P3)"
		default:
			s.Kind = fmt.Sprintf("newobject, fixed size %s", size(s.MaxSize))
			if len(m) > 1 {
				s.Kind += fmt.Sprintf(": one of %s, which the profile cannot tell apart", names(m))
			}
			s.Use, s.Bound = "reuse.Pool[*T] with New and Reset", "Reset must clear every field (pitfall P3)"
		}
	default:
		s.Kind = "unknown"
		s.Why = fmt.Sprintf("allocated inside %s, which reuse has no pooled form of; look at the stack in go tool pprof", s.leaf())
		return false
	}
	return true
}

// onlyRuntime reports whether nothing but runtime frames lie under the
// site: it allocates by itself (make, new, a composite literal, append).
func (s *site) onlyRuntime() bool {
	for _, f := range s.Stack {
		if !strings.HasPrefix(f, "runtime.") {
			return false
		}
	}
	return true
}

// sliceKind advises on a slice made or grown at the site: m are the
// allocs at its line that match it (matchAlloc), whose element types say
// whether the pool must clear them (Slices.Zero).
func (s *site) sliceKind(m []alloc) {
	verb := "makeslice"
	if s.has("runtime.growslice") {
		verb = "append growth"
	}
	if len(m) == 1 {
		verb = m[0].what
	}
	if s.Sizes > 1 {
		verb += " of varying sizes"
	}
	if s.Sizes == 1 {
		s.Kind = fmt.Sprintf("%s, fixed size %s", verb, size(s.MaxSize))
	} else {
		s.Kind = fmt.Sprintf("%s, %d sizes from %s to %s", verb, s.Sizes, size(s.MinSize), size(s.MaxSize))
	}
	s.Use = "reuse.Slices[E] (Get(n), Put)"
	s.Bound = fmt.Sprintf("MaxCap of %s / sizeof(E) elements or more: the largest slice here is %s", size(s.MaxSize), size(s.MaxSize))
	ptr := pointersUnknown
	for i, a := range m {
		if i == 0 || a.ptr == ptr {
			ptr = a.ptr
		} else {
			ptr = pointersUnknown
		}
	}
	elem := "E"
	if len(m) == 1 {
		elem = m[0].elem
		s.Kind += ": " + m[0].expr
	} else if len(m) > 1 {
		s.Kind += fmt.Sprintf(": %s, which the profile cannot tell apart", names(m))
	}
	switch {
	case ptr == hasPointers:
		s.Use = fmt.Sprintf("reuse.Slices[%s] with Zero set (Get(n), Put)", elem)
		s.Bound += fmt.Sprintf("; Zero: true, since %s holds pointers: Put then clears the elements, so that the pool keeps nothing they point to alive and the next Get sees none of it (pitfall P3)", elem)
		if len(m) > 1 {
			s.Bound = strings.Replace(s.Bound, "since E holds", "since each of "+names(m)+" holds", 1)
		}
	case ptr == noPointers:
		s.Use = fmt.Sprintf("reuse.Slices[%s] (Get(n), Put)", elem)
	case len(m) > 1:
		s.Bound += fmt.Sprintf("; set Zero if E holds pointers: E is one of %s, and some do", names(m))
	default:
		s.Bound += "; set Zero if E holds pointers (strings, slices, maps, pointers, interfaces), so that Put clears them"
	}
}

// ceilPow2 rounds up to a power of two.
func ceilPow2(v float64) float64 {
	if v <= 1 {
		return 1
	}
	return math.Pow(2, math.Ceil(math.Log2(v)))
}

// size formats bytes: 24 B, 4 KiB, 1.5 MiB.
func size(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.3g KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.3g B", b)
}

// count formats a number of objects: 812, 12.3k, 4.5M.
func count(n float64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.3gM", n/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.3gk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}
