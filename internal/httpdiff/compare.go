package httpdiff

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A Target is a middleware under test.
type Target struct {
	Name string
	Wrap func(http.Handler) http.Handler
	// Decoders decode the codings the middleware produces, other than
	// gzip; a decoder of a truncated stream returns what it decoded and an
	// error.
	Decoders map[string]func(io.Reader) ([]byte, error)
	// ETagKept is set when compressed responses keep the handler's ETag;
	// otherwise a strong one is weakened (httpcompress's default).
	ETagKept bool
	// Loose compares only what gzhttp documents as net/http's behaviour:
	// the status, the informational responses and the decoded body, for
	// programs that neither panic nor hijack, change the status or header
	// after the first Write, nor contradict their Content-Length.
	Loose bool
}

// A Runner serves programs bare and behind each Target, on 127.0.0.1.
type Runner struct {
	ref     *server
	targets []*server
	client  *http.Client
	id      atomic.Int64
}

type server struct {
	target Target
	srv    *httptest.Server
	runs   sync.Map // run id (the X-Httpdiff-Run header) → *entry
}

type entry struct {
	prog *Program
	run  run
	done chan struct{}
}

// New starts the servers, closed when t's test ends.
func New(t testing.TB, targets ...Target) *Runner {
	r := &Runner{client: &http.Client{
		Transport: &http.Transport{DisableKeepAlives: true, DisableCompression: true},
		Timeout:   20 * time.Second,
	}}
	r.ref = r.start(t, Target{Name: "net/http", Wrap: func(h http.Handler) http.Handler { return h }})
	for _, tg := range targets {
		r.targets = append(r.targets, r.start(t, tg))
	}
	return r
}

func (r *Runner) start(t testing.TB, tg Target) *server {
	s := &server{target: tg}
	inner := tg.Wrap(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		e := s.entry(req)
		e.prog.serve(w, req, &e.run)
	}))
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		e := s.entry(req)
		defer func() {
			v := recover()
			e.run.panicked = v
			close(e.done)
			if v != nil {
				panic(v) // net/http ends the response as it would have
			}
		}()
		inner.ServeHTTP(w, req)
	}))
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	return s
}

func (s *server) entry(req *http.Request) *entry {
	e, _ := s.runs.Load(req.Header.Get("X-Httpdiff-Run"))
	return e.(*entry)
}

// A response is what the client received.
type response struct {
	err           error // before the response's header
	status        int
	header        http.Header
	trailer       http.Header
	contentLength int64
	chunked       bool
	infos         []string // the informational responses, "code header"
	body          []byte
	bodyErr       error
}

// Check runs the program data decodes to bare and behind each target, and
// fails t where a target differs from net/http beyond what it documents.
func (r *Runner) Check(t *testing.T, data []byte) {
	p := Decode(data)
	ref, refRun := r.do(t, r.ref, p)
	for _, s := range r.targets {
		got, gotRun := r.do(t, s, p)
		if diffs := compare(p, s.target, ref, got, refRun, gotRun); len(diffs) > 0 {
			t.Errorf("%s differs from net/http on\n\t%s\n(input %q):\n\t%s", s.target.Name, p, data,
				strings.Join(diffs, "\n\t"))
		}
	}
}

func (r *Runner) do(t *testing.T, s *server, p *Program) (*response, *run) {
	id := strconv.FormatInt(r.id.Add(1), 10)
	e := &entry{prog: p, done: make(chan struct{})}
	s.runs.Store(id, e)
	defer s.runs.Delete(id)

	resp := new(response)
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		resp.infos = append(resp.infos, fmt.Sprint(code, " ", headerString(http.Header(h))))
		return nil
	}}
	ctx := httptrace.WithClientTrace(context.Background(), trace)
	req, err := http.NewRequestWithContext(ctx, p.Method, s.srv.URL+"/f.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Httpdiff-Run", id)
	for k, v := range map[string]string{"Accept-Encoding": p.AcceptEncoding, "If-None-Match": p.IfNoneMatch,
		"Range": p.Range} {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	hr, err := r.client.Do(req)
	if err != nil {
		resp.err = err
	} else {
		resp.status, resp.header, resp.contentLength = hr.StatusCode, hr.Header, hr.ContentLength
		resp.chunked = slices.Contains(hr.TransferEncoding, "chunked")
		resp.body, resp.bodyErr = io.ReadAll(hr.Body)
		hr.Body.Close()
		resp.trailer = hr.Trailer
	}
	select {
	case <-e.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: the handler did not return", s.target.Name)
	}
	return resp, &e.run
}

// headerString lists h's fields, sorted, without Date.
func headerString(h http.Header) string {
	var keys []string
	for k, v := range h {
		if k != "Date" {
			keys = append(keys, k+": "+strings.Join(v, ", "))
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, "; ")
}

// compare returns how got, the target's response, differs from ref,
// net/http's, beyond what the target documents.
func compare(p *Program, tg Target, ref, got *response, refRun, gotRun *run) []string {
	c := &comparison{p: p, tg: tg, ref: ref, got: got, refRun: refRun, gotRun: gotRun,
		wrongCL: p.wrongContentLength()}
	c.compressed = got.err == nil && got.header.Get("Content-Encoding") != "" &&
		got.header.Get("Content-Encoding") != ref.header.Get("Content-Encoding")
	if c.calls() && c.body() && !tg.Loose {
		c.headers()
	}
	return c.d
}

// A comparison is one target's response to a program beside net/http's.
type comparison struct {
	p              *Program
	tg             Target
	ref, got       *response
	refRun, gotRun *run
	compressed     bool // the target compressed what net/http did not
	wrongCL        bool // the program contradicts its Content-Length (see wrongContentLength)
	d              diffs
}

// calls compares how the handlers ended and what their calls returned, and
// reports whether there are responses left to compare.
func (c *comparison) calls() bool {
	// No panic but the program's: a panic of the middleware reaches the
	// top of the chain with its own value.
	if !samePanic(c.refRun.panicked, c.gotRun.panicked) {
		c.d.add("panic: got %v, want %v", c.gotRun.panicked, c.refRun.panicked)
		return false
	}
	if c.tg.Loose && !c.p.plain() {
		return false
	}
	switch {
	case c.tg.Loose:
		// gzhttp's Writes after a 204 or 304 return no error.
	case c.wrongCL:
		// A body that does not match the handler's Content-Length:
		// net/http fails the Write that crosses it, the middleware holds
		// the start of the body and writes it in other pieces, or drops
		// the length when compressing (documented); and net/http's
		// ReadFrom writes past it to a client that may or may not have
		// closed the connection yet.
		c.d.check("calls' errors", dropErrors(c.gotRun.ops), dropErrors(c.refRun.ops))
	default:
		c.d.check("calls' errors", c.gotRun.ops, c.refRun.ops)
	}
	c.d.check("hijacked", c.gotRun.hijacked, c.refRun.hijacked)
	if c.refRun.hijacked && c.refRun.visible {
		// net/http sends the header before it hands over the connection,
		// the middleware may still hold it: only the absence of a panic
		// is compared.
		return false
	}
	if (c.ref.err == nil) != (c.got.err == nil) {
		if c.refRun.panicked == nil || c.got.err == nil && c.got.bodyErr == nil {
			c.d.add("request error: got %v, want %v", c.got.err, c.ref.err)
		}
		return false
	}
	return c.ref.err == nil
}

// body compares the statuses and the decoded bodies, and reports whether
// the headers are to be compared.
func (c *comparison) body() bool {
	ref, got := c.ref, c.got
	c.d.check("status", got.status, ref.status)
	c.d.check("informational responses", stripVary(got.infos), stripVary(ref.infos))
	coding := got.header.Get("Content-Encoding")
	body := got.body
	var decErr error
	if c.compressed {
		body, decErr = decode(c.tg, coding, got.body)
	}
	unboundary(got.header, &body)
	unboundary(ref.header, &ref.body)
	if c.refRun.panicked != nil {
		c.truncated(body, decErr)
		return false
	}
	if decErr != nil {
		c.d.add("decoding %s: %v", coding, decErr)
	}
	if c.wrongCL && (bytes.HasPrefix(body, ref.body) || bytes.HasPrefix(ref.body, body) || c.p.copies()) {
		// net/http's ReadFrom writes past a length it failed a Write at,
		// unchecked, once the header is out: its body is then neither the
		// handler's nor a prefix of it.
		body = ref.body
	}
	if !bytes.Equal(body, ref.body) {
		c.d.add("body: got %d bytes %s, want %d bytes %s", len(body), excerpt(body), len(ref.body), excerpt(ref.body))
	}
	if (got.bodyErr == nil) != (ref.bodyErr == nil) && !c.wrongCL && !c.tg.Loose {
		c.d.add("body error: got %v, want %v", got.bodyErr, ref.bodyErr)
	}
	return true
}

// truncated compares the bodies of a program that panicked: both are
// truncated, so the target's must be the start of net/http's, or the
// other way round, and must not look complete.
func (c *comparison) truncated(body []byte, decErr error) {
	if c.got.bodyErr == nil && decErr == nil && c.ref.bodyErr != nil {
		c.d.add("a panicking handler's response looks complete (%d bytes decoded)", len(body))
	}
	if !bytes.HasPrefix(c.ref.body, body) && !bytes.HasPrefix(body, c.ref.body) {
		c.d.add("a panicking handler's body is not a prefix of net/http's")
	}
}

// headers compares the headers and trailers, modulo the documented
// differences.
func (c *comparison) headers() {
	ref, got := c.ref, c.got
	gh, rh := got.header.Clone(), ref.header.Clone()
	if c.wrongCL && len(ref.body) == 0 {
		// net/http sniffs the type from the first bytes it sends.
		delete(gh, "Content-Type")
		delete(rh, "Content-Type")
	}
	stripHeaderVary(gh)
	stripHeaderVary(rh)
	switch {
	case c.compressed:
		delete(gh, "Content-Encoding")
		delete(gh, "Content-Length")
		delete(rh, "Content-Length")
		delete(rh, "Accept-Ranges")
		if !c.tg.ETagKept {
			weaken(rh)
		}
	case c.p.copies() && got.chunked != ref.chunked:
		// net/http's ReadFrom (ServeContent's too) starts the response
		// after 512 bytes; the middleware holds them, and net/http may
		// then see all of a short body and send its length (documented).
		delete(gh, "Content-Length")
		delete(rh, "Content-Length")
	default:
		c.d.check("Content-Length", got.contentLength, ref.contentLength)
		c.d.check("chunked", got.chunked, ref.chunked)
	}
	if !c.compressed && got.status == http.StatusNotModified && !c.tg.ETagKept && gh.Get("Etag") == "W/"+rh.Get("Etag") {
		weaken(rh) // the tag of the compressed response the client may hold
	}
	if got.chunked != ref.chunked {
		// A chunked response's Trailer field declares its trailers, which
		// the client takes out of the header; a response with a length
		// has no trailers.
		delete(gh, "Trailer")
		delete(rh, "Trailer")
	} else {
		c.d.check("trailer", headerString(setOnly(got.trailer)), headerString(setOnly(ref.trailer)))
	}
	c.d.check("header", headerString(gh), headerString(rh))
}

type diffs []string

func (d *diffs) add(format string, args ...any) { *d = append(*d, fmt.Sprintf(format, args...)) }

func (d *diffs) check(what string, got, want any) {
	if g, w := fmt.Sprintf("%q", got), fmt.Sprintf("%q", want); g != w {
		d.add("%s: got %s, want %s", what, g, w)
	}
}

func samePanic(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ae, aok := a.(error)
	be, bok := b.(error)
	if aok && bok {
		return errors.Is(ae, be)
	}
	return a == b
}

func decode(tg Target, coding string, b []byte) ([]byte, error) {
	if dec := tg.Decoders[coding]; dec != nil {
		return dec(bytes.NewReader(b))
	}
	if coding != "gzip" {
		return b, fmt.Errorf("httpdiff: decode: no decoder for %q", coding)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func excerpt(b []byte) string {
	if len(b) > 24 {
		return fmt.Sprintf("%q...", b[:24])
	}
	return fmt.Sprintf("%q", b)
}

// stripVary removes Accept-Encoding from the Vary fields of informational
// responses, as stripHeaderVary does from a header.
func stripVary(infos []string) []string {
	var out []string
	for _, s := range infos {
		code, hdr, _ := strings.Cut(s, " ")
		h := http.Header{}
		for _, f := range strings.Split(hdr, "; ") {
			if k, v, ok := strings.Cut(f, ": "); ok {
				h[k] = []string{v}
			}
		}
		stripHeaderVary(h)
		out = append(out, code+" "+headerString(h))
	}
	return out
}

// stripHeaderVary removes Accept-Encoding from h's Vary: the middleware
// adds it to every response it sees (documented).
func stripHeaderVary(h http.Header) {
	var keep []string
	for _, v := range h["Vary"] {
		for _, tok := range strings.Split(v, ",") {
			if tok = strings.TrimSpace(tok); tok != "" && !strings.EqualFold(tok, "Accept-Encoding") {
				keep = append(keep, tok)
			}
		}
	}
	if keep == nil {
		delete(h, "Vary")
	} else {
		h["Vary"] = []string{strings.Join(keep, ", ")}
	}
}

// weaken turns h's strong ETag into a weak one, as a compressed response's.
func weaken(h http.Header) {
	if tag := h.Get("Etag"); tag != "" && !strings.HasPrefix(tag, "W/") {
		h.Set("Etag", "W/"+tag)
	}
}

// wrongContentLength reports whether the program sets a Content-Length
// other than its body's, itself or through a ServeContent that is not all
// of the body.
func (p *Program) wrongContentLength() bool {
	serves, bodies := false, 0
	for _, o := range p.ops {
		switch o.kind {
		case opServeContent:
			serves = true
			bodies++
		case opWrite, opReadFrom:
			bodies++
		}
		if o.kind != opSet {
			continue
		}
		if hs := headerSets[o.arg]; hs.name == "Content-Length" {
			if v := hs.value[0]; v == "$short" || v != "$total" && v != strconv.Itoa(p.total) {
				return true
			}
		}
	}
	return serves && bodies > 1
}

// setOnly returns the trailers of t that have a value: a declared trailer
// the handler did not set is in a chunked response's t, without one.
func setOnly(t http.Header) http.Header {
	out := http.Header{}
	for k, v := range t {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out
}

// plain reports whether the program is one every middleware handles as
// net/http does: no panic or hijack, no header or status change after the
// header is committed (at the first Write, final WriteHeader or Flush), no
// empty Write, no Write after a 204 or 304, and a Content-Length that
// matches the body.
func (p *Program) plain() bool {
	committed, noBody := false, false
	for _, o := range p.ops {
		if o.unplain(committed, noBody) {
			return false
		}
		noBody = noBody || !committed && o.kind == opWriteHeader && !bodyAllowed(codes[o.arg])
		committed = committed || o.commits()
	}
	return !p.wrongContentLength()
}

// unplain reports whether o makes a program one that gzhttp handles
// otherwise than net/http, after committed and noBody (a 204 or 304).
func (o op) unplain(committed, noBody bool) bool {
	switch o.kind {
	case opPanic, opHijack:
		return true
	case opSet, opDel, opWriteHeader, opServeContent:
		return committed
	case opWrite:
		// An empty Write makes gzhttp label a body it does not compress
		// gzip; one after a 204 or 304 makes it send Content-Encoding.
		return sizes[o.arg] == 0 || noBody
	case opReadFrom:
		return noBody
	}
	return false
}

// bodyAllowed reports whether a final status allows a body.
func bodyAllowed(code int) bool {
	return code != http.StatusNoContent && code != http.StatusNotModified
}

// commits reports whether the op commits net/http's header: a Write, a
// final status or a Flush.
func (o op) commits() bool {
	switch o.kind {
	case opWrite, opReadFrom, opServeContent, opFlush:
		return true
	case opWriteHeader:
		return codes[o.arg] >= 200
	case opController:
		return o.arg == 0
	}
	return false
}

// copies reports whether the program copies into the writer with ReadFrom,
// itself or through http.ServeContent.
func (p *Program) copies() bool {
	return slices.ContainsFunc(p.ops, func(o op) bool { return o.kind == opReadFrom || o.kind == opServeContent })
}

// dropErrors returns ops with ErrContentLength and I/O errors as
// successes.
func dropErrors(ops []string) []string {
	out := slices.Clone(ops)
	for i, o := range out {
		if o == http.ErrContentLength.Error() || o == "error" {
			out[i] = ""
		}
	}
	return out
}

// unboundary replaces the random boundaries of multipart/byteranges bodies
// (http.ServeContent's answer to several ranges), 60 hex digits from
// mime/multipart, in h's Content-Type and in body by a fixed one.
func unboundary(h http.Header, body *[]byte) {
	if ct := h.Get("Content-Type"); ct != "" {
		h.Set("Content-Type", boundary.ReplaceAllString(ct, "BOUNDARY"))
	}
	*body = boundary.ReplaceAll(*body, []byte("BOUNDARY"))
}

var boundary = regexp.MustCompile("[0-9a-f]{60}")
