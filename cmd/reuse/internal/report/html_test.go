package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

// fixture is a small fixed report: W1 at three sizes, a W2, an invalid
// variant and a finding, enough to draw both charts.
func fixture() report.Report {
	v := func(name, role string, ns, allocs, speedup float64, pub float64) report.Variant {
		x := report.Variant{Name: name, Role: role, NsPerOp: ns, NsMedian: ns, AllocsPerOp: allocs, BytesPerOp: 24 * allocs,
			Ops: 1000, Allocs: uint64(1000 * allocs), Speedup: speedup, Check: "ok", Valid: true}
		if pub > 0 {
			x.Published = &report.Published{Speedup: pub}
		}
		return x
	}
	w1 := report.Workload{ID: "W1", Name: "make vs pool by size", Op: "allocate a []int", Curve: "n (elements of []int)"}
	for _, c := range []struct {
		n         int
		name      string
		make, pub float64
	}{{0, "n=0", 2, 0.11}, {100, "n=100", 300, 2.6}, {1_000_000, "n=1M", 800_000, 10_000}} {
		w1.Cases = append(w1.Cases, report.Case{
			Name: c.name, Size: c.n,
			Variants: []report.Variant{
				v("make([]int, n)", report.RoleBaseline, c.make, 1, 1, 0),
				v("sync.Pool, []int value", report.RoleSyncPool, 60, 1, c.make/60, c.pub),
				v("reuse.Pool[[]int]", report.RoleReuse, 30, 0, c.make/30, c.pub),
			},
			Verdict: report.Verdict{Published: c.pub, Reproduction: report.Reproduced,
				Baseline: report.Comparison{Against: "make([]int, n)", Status: report.StatusFaster, Speedup: report.Interval{Median: c.make / 30, Low: c.make / 33, High: c.make / 28, Confidence: 0.96}},
				Headline: report.Comparison{Against: "sync.Pool, []int value", Status: report.StatusFaster, Speedup: report.Interval{Median: 2, Low: 1.9, High: 2.1, Confidence: 0.96}}},
		})
	}
	bad := v("sync.Pool, one input buffer", report.RoleSyncPool, 90, 0, 0, 6)
	bad.Valid, bad.Check, bad.Speedup = false, "error: EOF", 0
	w10 := report.Workload{ID: "W10", Name: "gunzip <&>", Op: "decompress", Cases: []report.Case{{
		Variants: []report.Variant{
			v("gzip.NewReader", report.RoleBaseline, 17000, 7, 1, 0),
			bad,
			v("reuse", report.RoleReuse, 4000, 0, 4.25, 6),
		},
		Verdict: report.Verdict{Published: 6, Reproduction: report.PublishedFake,
			Baseline: report.Comparison{Against: "gzip.NewReader", Status: report.StatusFaster, Speedup: report.Interval{Median: 4.25, Low: 4, High: 4.5, Confidence: 0.96}},
			Notes:    []string{"the published 6× comes from the write-up's code, which fails the check here: error: EOF"}},
	}}, Findings: []report.Finding{{Pitfall: "P1", Variant: "sync.Pool, one input buffer", Message: "measures the error path", Evidence: "99 of 100 ops returned an error (EOF)"}}}
	return report.Report{GoVersion: "go1.x", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2,
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Seconds: 1, Mode: "default",
		Workloads: []report.Workload{w1, w10}}
}

func writePage(t *testing.T, r report.Report) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteHTML(&b, r); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, b.Bytes()
}

// externalRef matches an attribute or CSS url() that would load something.
var externalRef = regexp.MustCompile(`(?i)(\b(src|href|action|poster|data)\s*=\s*["']?\s*(https?:)?//)|url\(\s*["']?\s*(https?:)?//|@import|<script[^>]+src|<link[^>]+href`)

// externalRefs lists what in page would make a request.
func externalRefs(page []byte) []string {
	return externalRef.FindAllString(string(page), -1)
}

func TestHTMLSelfContained(t *testing.T) {
	_, page := writePage(t, fixture())
	if refs := externalRefs(page); len(refs) > 0 {
		t.Errorf("page refers to external resources: %q", refs)
	}
	// The only URL on the page is the SVG namespace, which is a name, not a
	// request.
	urls := regexp.MustCompile(`https?://[^"'\s<>]+`).FindAllString(string(page), -1)
	for _, u := range urls {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("page contains URL %q", u)
		}
	}
	for _, want := range []string{"<svg", `class="bar"`, `class="line"`, "W10 gunzip &lt;&amp;&gt;", "99 of 100 ops", "published ratio not real", "same within noise"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestExternalRefsCheck(t *testing.T) {
	// The check must fail on a page that loads something.
	for _, bad := range []string{
		`<img src="http://example.com/a.png">`,
		`<link rel="stylesheet" href="https://cdn.example/x.css">`,
		`<script src="x.js"></script>`,
		`<div style="background: url(//example.com/a.png)">`,
	} {
		if len(externalRefs([]byte(bad))) == 0 {
			t.Errorf("externalRefs(%q) found nothing", bad)
		}
	}
}

// chromium returns the path of a Chromium binary, skipping the test when
// there is none, unless CI=true, where its absence is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no exec under wasm")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found; CI must install Debian's chromium package")
	}
	t.Skip("chromium not found; install it to run the browser test")
	return ""
}

// runChromium runs headless Chromium on file with extra flags and returns
// its standard output.
func runChromium(t *testing.T, bin, file string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", `--host-resolver-rules=MAP * ~NOTFOUND`,
		"--user-data-dir=" + t.TempDir(),
	}
	args = append(args, flags...)
	args = append(args, "file://"+file)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", flags, err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// requests returns the URLs of the requests the page made, from a Chromium
// net log: requests other than file: and data: ones whose initiator is the
// page (an opaque file origin, "null") or whose network isolation key is the
// file:// site. Chromium's own background requests (update checks, network
// time) have the initiator "not an origin" and are logged, not counted.
func requests(t *testing.T, netlog string) []string {
	t.Helper()
	b, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatalf("reading the net log: %v", err)
	}
	var log struct {
		Events []struct {
			Params struct {
				URL       string `json:"url"`
				Initiator string `json:"initiator"`
				Isolation string `json:"network_isolation_key"`
			} `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("the net log is not JSON: %v", err)
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range log.Events {
		p := e.Params
		if p.URL == "" || p.Initiator == "" || strings.HasPrefix(p.URL, "file:") || strings.HasPrefix(p.URL, "data:") || seen[p.URL] {
			continue
		}
		seen[p.URL] = true
		if p.Initiator == "not an origin" && !strings.Contains(p.Isolation, "file:") {
			t.Logf("Chromium's own request, not the page's: %.80s", p.URL)
			continue
		}
		out = append(out, p.URL)
	}
	return out
}

func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	file, _ := writePage(t, fixture())
	dir := t.TempDir()
	shot := filepath.Join(dir, "shot.png")
	netlog := filepath.Join(dir, "net.json")
	runChromium(t, bin, file, "--screenshot="+shot, "--window-size=1200,2000", "--log-net-log="+netlog)

	t.Run("screenshot not blank", func(t *testing.T) {
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("no screenshot: %v", err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("screenshot is not a PNG: %v", err)
		}
		colours, ink, total := inkStats(img)
		if colours < 20 || ink < total/50 {
			t.Errorf("screenshot looks blank: %d distinct colours, %d of %d pixels not white", colours, ink, total)
		}
	})
	t.Run("no request leaves the page", func(t *testing.T) {
		if reqs := requests(t, netlog); len(reqs) > 0 {
			t.Errorf("the page made requests: %q", reqs)
		}
	})
	t.Run("charts in the DOM", func(t *testing.T) {
		dom := runChromium(t, bin, file, "--dump-dom")
		counts := svgCounts(t, dom)
		if counts["svg"] < 2 {
			t.Errorf("rendered DOM has %d <svg>, want the 2 charts", counts["svg"])
		}
		// Speedup chart: W1 n=0, n=100, n=1M, W10 with 3 series minus the
		// invalid sync.Pool bar = 11 bars.
		if counts["bar"] != 11 {
			t.Errorf("rendered DOM has %d bars, want 11", counts["bar"])
		}
		if counts["line"] != 3 {
			t.Errorf("rendered DOM has %d crossover lines, want 3", counts["line"])
		}
	})
}

// TestNetLogCheck sees the request check fail on a page that loads an image.
func TestNetLogCheck(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.html")
	if err := os.WriteFile(file, []byte(`<!DOCTYPE html><img src="http://example.invalid/a.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	netlog := filepath.Join(dir, "net.json")
	runChromium(t, bin, file, "--screenshot="+filepath.Join(dir, "s.png"), "--window-size=200,200", "--log-net-log="+netlog)
	reqs := requests(t, netlog)
	found := false
	for _, r := range reqs {
		if strings.Contains(r, "example.invalid") {
			found = true
		}
	}
	if !found {
		t.Errorf("net log of a page loading http://example.invalid/a.png shows requests %q, want that one", reqs)
	}
}

// inkStats counts an image's distinct colours and its pixels that are not
// (nearly) white.
func inkStats(img image.Image) (colours, ink, total int) {
	seen := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
			total++
		}
	}
	return len(seen), ink, total
}

// svgCounts parses the SVG elements out of an HTML DOM dump and counts the
// <svg> elements and the drawn bars and lines.
func svgCounts(t *testing.T, dom []byte) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, m := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAll(dom, -1) {
		d := xml.NewDecoder(bytes.NewReader(m))
		for {
			tok, err := d.Token()
			if errors.Is(err, os.ErrClosed) || err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("rendered SVG is not well-formed: %v", err)
				}
				break
			}
			if se, ok := tok.(xml.StartElement); ok {
				if se.Name.Local == "svg" {
					counts["svg"]++
				}
				for _, a := range se.Attr {
					if a.Name.Local == "class" {
						counts[a.Value]++
					}
				}
			}
		}
	}
	return counts
}

// overflowProbe, put at the end of a copy of the page (the page itself has
// no script), records how far the document is wider than the window.
const overflowProbe = `<script>document.body.setAttribute("data-overflow", String(document.documentElement.scrollWidth - window.innerWidth))</script>`

// TestHTMLOnPhone renders the page in a phone-sized window and checks that
// nothing makes the page wider than the screen: wide tables scroll inside
// their box, charts shrink to fit.
func TestHTMLOnPhone(t *testing.T) {
	bin := chromium(t)
	r := fixture()
	r.CPU = "a processor with a rather long model name, 2.80GHz"
	_, page := writePage(t, r)
	probe := bytes.Replace(page, []byte("</body>"), []byte(overflowProbe+"</body>"), 1)
	file := filepath.Join(t.TempDir(), "phone.html")
	if err := os.WriteFile(file, probe, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, bin, file, "--window-size=390,844", "--dump-dom")
	m := regexp.MustCompile(`data-overflow="(-?\d+)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run; DOM:\n%.500s", dom)
	}
	if string(m[1]) != "0" && !strings.HasPrefix(string(m[1]), "-") {
		t.Errorf("on a 390 px wide screen the page is %s px wider than the window", m[1])
	}
}

// TestHTMLOnPhoneCheck sees the phone check fail on a page wider than the
// screen.
func TestHTMLOnPhoneCheck(t *testing.T) {
	bin := chromium(t)
	file := filepath.Join(t.TempDir(), "wide.html")
	page := `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><div style="width:1200px">wide</div>` + overflowProbe + `</body></html>`
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, bin, file, "--window-size=390,844", "--dump-dom")
	m := regexp.MustCompile(`data-overflow="(-?\d+)"`).FindSubmatch(dom)
	if m == nil || string(m[1]) == "0" || strings.HasPrefix(string(m[1]), "-") {
		t.Errorf("a 1200 px wide page on a 390 px screen reads overflow %q, want positive", m)
	}
}

// TestChartsAgreeWithText: a chart's labels round as the text does (0.3125
// drew 0.312× beside the text's 0.313×), and the heap chart counts bytes
// in KiB and MiB, as everything else does, not kB and MB (issue 60).
func TestChartsAgreeWithText(t *testing.T) {
	r := report.Report{Workloads: []report.Workload{{ID: "W11", Cases: []report.Case{{
		Verdict: report.Verdict{Published: 0.3125, Reproduction: report.Reproduced},
		Variants: []report.Variant{
			{Name: "new", Role: report.RoleBaseline, Valid: true, Check: "ok", Retained: 3 << 20},
			{Name: "bytebuf.Pool", Role: report.RoleReuse, Valid: true, Check: "ok", Speedup: 0.3125, Retained: 96 << 10},
		},
	}}}}}
	svg := report.SpeedupChart(r).SVG()
	if want := report.Ratio(0.3125); !strings.Contains(svg, ">"+want+"<") || strings.Contains(svg, "0.312") {
		t.Errorf("the speedup chart does not label 0.3125 as the text does, %s:\n%s", want, svg)
	}
	charts := report.RetainedCharts(r)
	if len(charts) != 1 {
		t.Fatalf("%d heap charts, want 1", len(charts))
	}
	svg = charts[0].SVG()
	for _, bad := range []string{"kB", "MB"} {
		if strings.Contains(svg, bad) {
			t.Errorf("the heap chart says %s:\n%s", bad, svg)
		}
	}
	for _, want := range []string{">" + report.Bytes(3<<20) + "B<", ">" + report.Bytes(96<<10) + "B<", "KiB<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the heap chart lacks %q:\n%s", want, svg)
		}
	}
}
