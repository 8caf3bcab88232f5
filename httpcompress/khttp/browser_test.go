package khttp_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
	"github.com/reuse-go/reuse/internal/race"
)

// browserPage is the page headless Chromium loads. Its script checks a JSON
// resource's SHA-256, receives 20 server-sent events, reads a streamed
// response whose handler waits for the script to have read the first chunk,
// revalidates a resource (a 304 behind fetch's 200) and sends a HEAD, then
// POSTs what it saw to /report. Timings are the page's own
// (performance.now), with no virtual time.
const browserPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>httpcompress in a browser</title></head><body>
<p>%s</p>
<script>
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
async function json() {
  const r = await fetch("/data.json");
  const buf = await r.arrayBuffer();
  const items = JSON.parse(new TextDecoder().decode(buf)).length;
  return {status: r.status, encoding: r.headers.get("content-encoding") || "", sum: hex(await crypto.subtle.digest("SHA-256", buf)), items};
}
function events() {
  return new Promise((resolve) => {
    const times = [], data = [];
    const es = new EventSource("/events");
    es.onmessage = (e) => {
      times.push(performance.now());
      data.push(e.data);
      if (data.length === 20) { es.close(); resolve({times, data}); }
    };
    es.onerror = () => { es.close(); resolve({times, data, error: "EventSource error"}); };
  });
}
async function stream() {
  const r = await fetch("/stream");
  const reader = r.body.getReader();
  const first = await reader.read();
  await fetch("/first", {method: "POST", body: String(first.value.length)});
  let total = first.value.length;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    total += value.length;
  }
  return {encoding: r.headers.get("content-encoding") || "", first: first.value.length, total};
}
async function revalidate() {
  const a = await fetch("/etag.txt");
  const ta = await a.text();
  const b = await fetch("/etag.txt", {cache: "no-cache"});
  const tb = await b.text();
  return {status: b.status, same: ta === tb, length: tb.length, etag: b.headers.get("etag") || ""};
}
async function head() {
  const r = await fetch("/data.json", {method: "HEAD"});
  return {status: r.status, encoding: r.headers.get("content-encoding") || "", length: (await r.text()).length};
}
(async () => {
  const out = {};
  try {
    out.json = await json();
    out.events = await events();
    out.stream = await stream();
    out.revalidate = await revalidate();
    out.head = await head();
  } catch (e) {
    out.error = String(e);
  }
  await fetch("/report", {method: "POST", body: JSON.stringify(out)});
})();
</script></body></html>`

// browserReport is what the page POSTs.
type browserReport struct {
	Error string
	JSON  struct {
		Status   int
		Encoding string
		Sum      string
		Items    int
	}
	Events struct {
		Times []float64
		Data  []string
		Error string
	}
	Stream struct {
		Encoding     string
		First, Total int
	}
	Revalidate struct {
		Status int
		Same   bool
		Length int
		ETag   string
	}
	Head struct {
		Status   int
		Encoding string
		Length   int
	}
}

// exchange is one request as the server saw it, outside the middleware.
type exchange struct {
	method, path, proto, acceptEncoding, ifNoneMatch string
	status                                           int
	contentEncoding, etag                            string
}

// recorder records each exchange; it unwraps for http.ResponseController.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	return r.ResponseWriter.Write(p)
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// browserSite serves the page and its resources behind mw.
type browserSite struct {
	t          *testing.T
	data, text []byte
	firstChunk chan int
	report     chan []byte
	mu         sync.Mutex // protects seen and streamErr
	seen       []exchange
	streamErr  string
}

func newBrowserSite(t *testing.T) *browserSite {
	var b strings.Builder
	b.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user%d","email":"user%d@example.com","active":%v,"score":%d.%d}`, i, i*31%997, i, i%3 != 0, i*37%1000, i%10)
	}
	b.WriteString("]")
	return &browserSite{t: t, data: []byte(b.String()), text: text(20000), firstChunk: make(chan int, 1), report: make(chan []byte, 1)}
}

func (s *browserSite) handler(mw func(http.Handler) http.Handler) http.Handler {
	inner := mw(http.HandlerFunc(s.serve))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		inner.ServeHTTP(rec, r)
		s.mu.Lock()
		s.seen = append(s.seen, exchange{r.Method, r.URL.Path, r.Proto, r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"),
			rec.status, w.Header().Get("Content-Encoding"), w.Header().Get("Etag")})
		s.mu.Unlock()
	})
}

func (s *browserSite) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, browserPage, strings.Repeat("A page long enough to be compressed. ", 60))
	case "/data.json":
		w.Header().Set("Content-Type", "application/json")
		w.Write(s.data)
	case "/events":
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		for i := range 20 {
			if i > 0 {
				time.Sleep(100 * time.Millisecond)
			}
			fmt.Fprintf(w, "data: event %d\n\n", i)
			if err := http.NewResponseController(w).Flush(); err != nil {
				return
			}
		}
	case "/stream":
		s.stream(w, r)
	case "/first":
		b, _ := io.ReadAll(r.Body)
		var n int
		fmt.Sscan(string(b), &n)
		s.firstChunk <- n
	case "/etag.txt":
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Cache-Control", "max-age=3600")
		http.ServeContent(w, r, "etag.txt", time.Unix(1e9, 0), strings.NewReader(string(s.text)))
	case "/report":
		b, _ := io.ReadAll(r.Body)
		s.report <- b
	default:
		http.NotFound(w, r)
	}
}

// stream writes a first chunk, flushes, and goes on only once the page
// says it has read that chunk: a compressor that held the chunk back would
// stall the page until the timeout, and the handler would finish first.
func (s *browserSite) stream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text(4000))
	http.NewResponseController(w).Flush()
	select {
	case <-s.firstChunk:
	case <-time.After(10 * time.Second):
		s.mu.Lock()
		s.streamErr = "the page had not read the first chunk 10 s after it was flushed"
		s.mu.Unlock()
	case <-r.Context().Done():
		return
	}
	for range 64 {
		w.Write(text(16 << 10))
	}
}

// chromium finds the browser; without it the test skips, or fails under
// CI=true.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found under CI (scripts/test installs Debian's chromium package)")
	}
	t.Skip("chromium not found (apt-get install chromium)")
	return ""
}

// runBrowser loads url in headless Chromium and returns what the page
// reported, killing the browser's process group afterwards.
func runBrowser(t *testing.T, bin, url string, site *browserSite, spki string) browserReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	args := []string{"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-background-networking", "--disable-component-update",
		"--user-data-dir=" + t.TempDir()}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	if spki != "" {
		// Trusts httptest's certificate as if a CA had issued it: with
		// --ignore-certificate-errors Chromium would not cache, so no 304.
		args = append(args, "--ignore-certificate-errors-spki-list="+spki)
	}
	cmd := exec.Command(bin, append(args, url)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the browser and its helpers
		<-exited
	}()
	select {
	case b := <-site.report:
		var rep browserReport
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatalf("report %q: %v", b, err)
		}
		return rep
	case err := <-exited:
		t.Fatalf("chromium exited before the page reported: %v\n%s", err, stderr.String())
	case <-ctx.Done():
		t.Fatalf("no report from the page within 40 s\n%s", stderr.String())
	}
	return browserReport{}
}

// TestBrowser: headless Chromium against httpcompress (compress/gzip) and
// khttp (zstd, or gzip where the browser does not offer zstd), over
// HTTP/1.1 and over HTTPS with HTTP/2, on 127.0.0.1.
func TestBrowser(t *testing.T) {
	if race.Enabled || reuse.Debug || testing.Short() || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("the browser test runs once per CI run: natively, without -race, -short or the debug build")
	}
	bin := chromium(t)
	for _, tc := range []struct {
		name  string
		mw    func(http.Handler) http.Handler
		tls   bool
		wants string // the coding the browser's JSON must arrive in
	}{
		{"httpcompress/http1", httpcompress.Handler, false, "gzip"},
		{"httpcompress/h2", httpcompress.Handler, true, "gzip"},
		{"khttp/http1", khttp.Handler, false, ""}, // zstd if offered over http
		{"khttp/h2", khttp.Handler, true, "zstd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newBrowserSite(t)
			srv := httptest.NewUnstartedServer(site.handler(tc.mw))
			if tc.tls {
				srv.EnableHTTP2 = true
				srv.StartTLS()
			} else {
				srv.Start()
			}
			defer srv.Close()
			spki := ""
			if tc.tls {
				sum := sha256.Sum256(srv.Certificate().RawSubjectPublicKeyInfo)
				spki = base64.StdEncoding.EncodeToString(sum[:])
			}
			rep := runBrowser(t, bin, srv.URL+"/", site, spki)
			site.check(t, rep, tc.tls, tc.wants)
		})
	}
}

func (s *browserSite) check(t *testing.T, rep browserReport, h2 bool, wants string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if rep.Error != "" {
		t.Fatalf("the page failed: %s", rep.Error)
	}
	pageSeen := exchange{}
	for _, x := range s.seen {
		if x.path == "/" {
			pageSeen = x
		}
	}
	if want := map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"}[h2]; pageSeen.proto != want {
		t.Errorf("page served over %q, want %s", pageSeen.proto, want)
	}
	if wants == "" {
		wants = "gzip"
		if strings.Contains(pageSeen.acceptEncoding, "zstd") {
			wants = "zstd"
		}
		t.Logf("Chromium's Accept-Encoding over http: %q", pageSeen.acceptEncoding)
	}
	sum := sha256.Sum256(s.data)
	if rep.JSON.Status != 200 || rep.JSON.Sum != hex.EncodeToString(sum[:]) || rep.JSON.Items != 3000 || rep.JSON.Encoding != wants {
		t.Errorf("JSON: %+v; want 200, SHA-256 %x, 3000 items, %s", rep.JSON, sum, wants)
	}
	s.checkEvents(t, rep, wants)
	if s.streamErr != "" || rep.Stream.Encoding != wants || rep.Stream.Total != 4000+64*16<<10 {
		t.Errorf("stream: %+v, %s; want %s, %d bytes, the first chunk read while the handler ran", rep.Stream, s.streamErr, wants, 4000+64*16<<10)
	}
	var revalidated, headSeen bool
	for _, x := range s.seen {
		switch {
		case x.path == "/etag.txt" && x.status == 304:
			revalidated = true
			if x.ifNoneMatch != `W/"v1"` || x.etag != `W/"v1"` || x.contentEncoding != "" {
				t.Errorf("304: If-None-Match %q, ETag %q, Content-Encoding %q; want W/\"v1\" twice and none", x.ifNoneMatch, x.etag, x.contentEncoding)
			}
		case x.method == "HEAD":
			headSeen = true
			if x.status != 200 || x.contentEncoding != "" {
				t.Errorf("HEAD: status %d, Content-Encoding %q; want 200 and none", x.status, x.contentEncoding)
			}
		}
	}
	if !revalidated || rep.Revalidate.Status != 200 || !rep.Revalidate.Same || rep.Revalidate.Length != len(s.text) || rep.Revalidate.ETag != `W/"v1"` {
		t.Errorf("revalidation: server saw a 304: %v; page: %+v", revalidated, rep.Revalidate)
	}
	if !headSeen || rep.Head.Status != 200 || rep.Head.Encoding != "" || rep.Head.Length != 0 {
		t.Errorf("HEAD: server saw it: %v; page: %+v", headSeen, rep.Head)
	}
}

// checkEvents: 20 events, in order, compressed, arriving over at least
// 1.5 s (sent 100 ms apart: a compressor that held them back would deliver
// them at once at the end).
func (s *browserSite) checkEvents(t *testing.T, rep browserReport, wants string) {
	t.Helper()
	ev := rep.Events
	if ev.Error != "" || len(ev.Data) != 20 {
		t.Errorf("events: %d received (%s), want 20", len(ev.Data), ev.Error)
		return
	}
	for i, d := range ev.Data {
		if d != fmt.Sprintf("event %d", i) {
			t.Errorf("event %d: %q", i, d)
		}
	}
	if spread := ev.Times[19] - ev.Times[0]; spread < 1500 {
		t.Errorf("events arrived over %.0f ms, want at least 1500 (sent 100 ms apart)", spread)
	}
	for _, x := range s.seen {
		if x.path == "/events" && x.contentEncoding != wants {
			t.Errorf("events sent with Content-Encoding %q, want %s", x.contentEncoding, wants)
		}
	}
}
