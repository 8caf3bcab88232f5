// Package httpdiff holds the differential test behind httpcompress's and
// khttp's fuzz targets: a handler program, decoded from fuzz bytes, runs
// behind a middleware and bare, each on a real net/http server on
// 127.0.0.1, and the two responses a client receives must be the same
// modulo the differences the middleware documents. net/http is the oracle,
// not the middleware's own tests' expectations.
package httpdiff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The kinds of op a handler program is made of.
const (
	opWrite        = iota // Write the next size bytes of the body
	opReadFrom            // io.Copy the next size bytes, through ReadFrom
	opSet                 // set a header (one of headerSets)
	opDel                 // delete a header (one of headerNames)
	opWriteHeader         // WriteHeader(codes[arg])
	opFlush               // http.Flusher's Flush
	opController          // a ResponseController call (controllerCalls)
	opPanic               // panic(panicValue), or http.ErrAbortHandler
	opHijack              // take the connection, write a raw response, close it
	opServeContent        // http.ServeContent of sizes[arg] bytes of text
	opKinds
)

// maxOps bounds a program, so that a fuzzed input stays cheap.
const maxOps = 16

var sizes = [...]int{0, 1, 5, 6, 100, 511, 512, 513, 600, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 3000,
	5000, 20000, 70000}

var codes = [...]int{100, 103, 200, 201, 204, 206, 299, 301, 304, 404, 500}

// A header value "$total" is the Content-Length of the program's Writes and
// ReadFroms; "$short" is 100 more, a body shorter than declared; nil deletes
// the value but keeps the key, as a handler that refuses sniffing does.
var headerSets = [...]struct {
	name  string
	value []string
}{
	{"Content-Type", []string{"text/plain; charset=utf-8"}},
	{"Content-Type", []string{"image/png"}},
	{"Content-Type", []string{"application/json"}},
	{"Content-Type", nil},
	{"Content-Type", []string{""}},
	{"Content-Length", []string{"$total"}},
	{"Content-Length", []string{"$short"}},
	{"Content-Length", []string{"0"}},
	{"Content-Length", []string{"5000"}},
	{"Content-Encoding", []string{"br"}},
	{"Content-Range", []string{"bytes 0-9/100"}},
	{"Etag", []string{`"v1"`}},
	{"Etag", []string{`W/"v1"`}},
	{"Vary", []string{"Origin"}},
	{"Vary", []string{"Accept-Encoding"}},
	{"Accept-Ranges", []string{"bytes"}},
	{"X-Test", []string{"a"}},
	{"Trailer", []string{"X-Trailer"}},
	{"X-Trailer", []string{"t"}},
	{http.TrailerPrefix + "X-Late", []string{"late"}},
	{"Cache-Control", []string{"no-store"}},
}

var headerNames = [...]string{"Content-Type", "Content-Length", "Content-Encoding", "Etag", "Vary", "X-Test",
	"Accept-Ranges", "X-Trailer"}

var controllerCalls = [...]string{"Flush", "SetWriteDeadline", "SetReadDeadline", "EnableFullDuplex"}

// The request's forms. "" in acceptEncodings sends no Accept-Encoding.
var (
	acceptEncodings = [...]string{"", "gzip", "gzip, identity;q=0", "*;q=0", "gzip;q=0", "identity", "*", "zstd",
		"zstd, gzip", "gzip;q=0.5, zstd", "x-gzip", "GZIP;Q=0.001", "br", "gzip, *;q=0", "identity;q=0",
		"gzip;q=1.0, identity;q=0.5"}
	ifNoneMatches = [...]string{"", `"v1"`, `W/"v1"`, "*", `"v2"`}
	ranges        = [...]string{"", "bytes=0-99", "bytes=100-", "bytes=0-0,5-9"}
)

// panicValue is what a program panics with, to tell its panic from one of
// the middleware's.
const panicValue = "httpdiff: the program panics"

// modTime is ServeContent's modification time.
var modTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// hijacked is the response a program that hijacks writes on the raw
// connection.
const hijacked = "HTTP/1.1 299 Hijacked\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked"

// An op is one step of a handler program.
type op struct {
	kind, arg int
}

// A Program is a handler and the request sent to it.
type Program struct {
	Method, AcceptEncoding, IfNoneMatch, Range string
	binary                                     bool // the body is PNG-like, not text
	ops                                        []op
	total                                      int // bytes the Writes and ReadFroms produce
}

// Decode reads a Program from fuzz bytes; any input is a program.
func Decode(data []byte) *Program {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	p := &Program{Method: http.MethodGet}
	p.AcceptEncoding = acceptEncodings[next()%len(acceptEncodings)]
	flags := next()
	p.IfNoneMatch = ifNoneMatches[(flags&7)%len(ifNoneMatches)]
	p.Range = ranges[flags>>3&3]
	if flags&0x20 != 0 {
		p.Method = http.MethodHead
	}
	p.binary = flags&0x40 != 0
	for len(data) > 0 && len(p.ops) < maxOps {
		o := op{kind: next() % opKinds}
		o.arg = next() % argCount(o.kind)
		if o.kind == opWrite || o.kind == opReadFrom {
			p.total += sizes[o.arg]
		}
		p.ops = append(p.ops, o)
	}
	return p
}

// Encode is Decode's inverse, for seeds written as programs: each step is
// "write N", "readfrom N", "set Name: value", "del Name", "status N",
// "flush", "rc Call", "panic", "abort", "hijack" or "servecontent N"; ae,
// inm and rng are indexes into the request forms.
func Encode(ae, inm, rng int, head, binary bool, steps ...string) []byte {
	flags := inm | rng<<3
	if head {
		flags |= 0x20
	}
	if binary {
		flags |= 0x40
	}
	out := []byte{byte(ae), byte(flags)}
	for _, s := range steps {
		o, ok := parseStep(s)
		if !ok {
			panic("httpdiff: Encode: bad step " + strconv.Quote(s))
		}
		out = append(out, byte(o.kind), byte(o.arg))
	}
	return out
}

// parseStep returns the op whose String is s.
func parseStep(s string) (op, bool) {
	for kind := range opKinds {
		for arg := range argCount(kind) {
			if o := (op{kind, arg}); o.String() == s {
				return o, true
			}
		}
	}
	return op{}, false
}

// argCount is how many arguments ops of kind take.
func argCount(kind int) int {
	switch kind {
	case opWrite, opReadFrom, opServeContent:
		return len(sizes)
	case opSet:
		return len(headerSets)
	case opDel:
		return len(headerNames)
	case opWriteHeader:
		return len(codes)
	case opController:
		return len(controllerCalls)
	case opPanic:
		return 2
	}
	return 1
}

// String lists the program's request and steps, in Encode's words.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s Accept-Encoding %q If-None-Match %q Range %q binary %v:", p.Method, p.AcceptEncoding,
		p.IfNoneMatch, p.Range, p.binary)
	for _, o := range p.ops {
		b.WriteString(" ")
		b.WriteString(o.String())
		b.WriteString(";")
	}
	return b.String()
}

func (o op) String() string {
	switch o.kind {
	case opWrite:
		return fmt.Sprintf("write %d", sizes[o.arg])
	case opReadFrom:
		return fmt.Sprintf("readfrom %d", sizes[o.arg])
	case opServeContent:
		return fmt.Sprintf("servecontent %d", sizes[o.arg])
	case opSet:
		hs := headerSets[o.arg]
		if hs.value == nil {
			return "set " + hs.name + ": <nil>"
		}
		return "set " + hs.name + ": " + hs.value[0]
	case opDel:
		return "del " + headerNames[o.arg]
	case opWriteHeader:
		return fmt.Sprintf("status %d", codes[o.arg])
	case opFlush:
		return "flush"
	case opController:
		return "rc " + controllerCalls[o.arg]
	case opPanic:
		return [...]string{"panic", "abort"}[o.arg]
	}
	return "hijack"
}

// body returns the program's body bytes from off to off+n: text, or a PNG
// signature followed by bytes that do not compress.
func (p *Program) body(off, n int) []byte {
	b := make([]byte, n)
	const line = "the quick brown fox jumps over the lazy dog 0123456789\n"
	for i := range b {
		at := off + i
		switch {
		case !p.binary:
			b[i] = line[at%len(line)]
		case at < len(pngSignature):
			b[i] = pngSignature[at]
		default:
			x := uint32(at) * 2654435761
			b[i] = byte(x>>24 ^ x>>13)
		}
	}
	return b
}

var pngSignature = []byte("\x89PNG\x0d\x0a\x1a\x0a")

// Body returns what the program's Writes and ReadFroms produce, in order.
func (p *Program) Body() []byte { return p.body(0, p.total) }

// readerOnly hides a reader's WriteTo, so that io.Copy uses the
// ResponseWriter's ReadFrom.
type readerOnly struct{ io.Reader }

// run is one execution of a program: what its calls returned and how it
// ended.
type run struct {
	ops      []string // one per op executed: "" or the error's class
	panicked any      // what the handler chain panicked with, recovered at the top
	hijacked bool
	visible  bool // something (status, headers, body) was written before a hijack
}

// serve runs p's ops against w, recording each result into rr.
func (p *Program) serve(w http.ResponseWriter, r *http.Request, rr *run) {
	off := 0
	rc := http.NewResponseController(w)
	for _, o := range p.ops {
		var err error
		switch o.kind {
		case opWrite, opReadFrom, opServeContent:
			err = p.write(w, r, o, &off)
			rr.visible = true
		case opPanic:
			if o.arg == 1 {
				panic(http.ErrAbortHandler)
			}
			panic(panicValue)
		case opHijack:
			conn, brw, err := rc.Hijack()
			rr.ops = append(rr.ops, class(err))
			if err != nil {
				continue
			}
			rr.hijacked = true
			brw.WriteString(hijacked)
			brw.Flush()
			conn.Close()
			return
		default:
			err = p.control(w, rc, o)
			rr.visible = rr.visible || o.commits()
		}
		rr.ops = append(rr.ops, class(err))
	}
}

// write runs a Write, ReadFrom or ServeContent op, the body from off on.
func (p *Program) write(w http.ResponseWriter, r *http.Request, o op, off *int) error {
	n := sizes[o.arg]
	switch o.kind {
	case opServeContent:
		http.ServeContent(w, r, "f.txt", modTime, bytes.NewReader(p.body(0, n)))
		return nil
	case opReadFrom:
		_, err := io.Copy(w, readerOnly{bytes.NewReader(p.body(*off, n))})
		*off += n
		return err
	}
	_, err := w.Write(p.body(*off, n))
	*off += n
	return err
}

func (p *Program) set(h http.Header, name string, value []string) {
	if value == nil {
		h[http.CanonicalHeaderKey(name)] = nil
		return
	}
	switch v := value[0]; v {
	case "$total":
		v = strconv.Itoa(p.total)
		h.Set(name, v)
	case "$short":
		h.Set(name, strconv.Itoa(p.total+100))
	default:
		h.Set(name, v)
	}
}

// control runs a header, status, Flush or ResponseController op.
func (p *Program) control(w http.ResponseWriter, rc *http.ResponseController, o op) error {
	switch o.kind {
	case opSet:
		p.set(w.Header(), headerSets[o.arg].name, headerSets[o.arg].value)
	case opDel:
		w.Header().Del(headerNames[o.arg])
	case opWriteHeader:
		w.WriteHeader(codes[o.arg])
	case opFlush:
		w.(http.Flusher).Flush()
	case opController:
		switch o.arg {
		case 0:
			return rc.Flush()
		case 1:
			return rc.SetWriteDeadline(time.Now().Add(time.Minute))
		case 2:
			return rc.SetReadDeadline(time.Now().Add(time.Minute))
		}
		return rc.EnableFullDuplex()
	}
	return nil
}

// class names an error by the net/http sentinel it matches, so that two
// writers' errors compare; "" is nil.
func class(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range []error{http.ErrBodyNotAllowed, http.ErrContentLength, http.ErrHijacked, http.ErrNotSupported,
		http.ErrAbortHandler} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return "error"
}

// Seeds are programs that reach each kind of step and the cases that once
// failed.
func Seeds() [][]byte {
	return [][]byte{
		Encode(1, 0, 0, false, false, "write 3000"),
		Encode(1, 0, 0, false, false, "write 100"),
		Encode(2, 0, 0, false, false, "write 5", "set Content-Type: text/plain; charset=utf-8", "write 6"),
		Encode(1, 0, 0, false, false, "write 600", "set Content-Length: 5000", "write 100"),
		Encode(1, 0, 0, false, true, "write 3000"),
		Encode(1, 0, 0, false, false, "set Content-Type: image/png", "write 3000"),
		Encode(1, 0, 0, false, false, "status 103", "set X-Test: a", "write 2049", "flush", "write 5"),
		Encode(1, 0, 0, false, false, "status 204", "write 5"),
		Encode(1, 1, 0, false, false, "set Etag: \"v1\"", "status 304"),
		Encode(1, 2, 1, false, false, "set Etag: \"v1\"", "servecontent 3000"),
		Encode(1, 0, 1, false, false, "servecontent 3000"),
		Encode(1, 0, 0, true, false, "servecontent 3000"),
		Encode(8, 0, 0, false, false, "set Content-Length: $total", "write 2048", "write 1025"),
		Encode(1, 0, 0, false, false, "set Trailer: X-Trailer", "write 3000", "set X-Trailer: t"),
		Encode(1, 0, 0, false, false, "rc SetWriteDeadline", "rc EnableFullDuplex", "write 1000", "rc Flush",
			"rc SetReadDeadline", "write 1000"),
		Encode(1, 0, 0, false, false, "readfrom 70000"),
		Encode(1, 0, 0, false, false, "write 3000", "flush", "panic"),
		Encode(1, 0, 0, false, false, "write 3000", "flush", "abort"),
		Encode(1, 0, 0, false, false, "status 103", "hijack"),
		Encode(1, 0, 0, false, false, "write 100", "hijack"),
		Encode(3, 0, 0, false, false, "write 20000"),
		Encode(6, 0, 0, false, false, "set Content-Encoding: br", "write 3000"),
		Encode(1, 0, 0, false, false, "set Vary: Origin", "write 3000"),
	}
}
