package report_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

// chartsFixture is fixture with a W11-like case whose variants measured
// the heap they retain, under the long names W11's have, so that the page
// draws every kind of chart: speedups, a curve, retained heap.
func chartsFixture() report.Report {
	r := fixture()
	w := report.Workload{ID: "W11", Name: "mixed sizes", Op: "write 1 KiB or 1 MiB"}
	c := report.Case{Verdict: report.Verdict{Reproduction: report.NoPublished}}
	for _, v := range []struct {
		name, role string
		kept       uint64
	}{
		{"new(bytes.Buffer)", report.RoleBaseline, 1168},
		{"sync.Pool of *bytes.Buffer", report.RoleSyncPool, 1 << 20},
		{"sync.Pool, drops > 64 KiB", report.RoleSyncPoolCorrect, 1472},
		{"bytebuf.Pool, calibrated", report.RoleReuse, 20 << 10},
		{"libp2p/go-buffer-pool, a peer with a long name", report.RoleOther, 11 << 20},
	} {
		c.Variants = append(c.Variants, report.Variant{Name: v.name, Role: v.role, Valid: true, Check: "ok",
			NsPerOp: 100, NsMedian: 100, Ops: 10, Speedup: 1, Retained: v.kept})
	}
	w.Cases = []report.Case{c}
	r.Workloads = append(r.Workloads, w)
	return r
}

// roleOf is the role of what a chart element stands for, from the names
// the fixture and the speedup chart's legend give them.
func roleOf(t *testing.T, r report.Report, name string) string {
	t.Helper()
	switch name {
	case "sync.Pool as usually written":
		return report.RoleSyncPool
	case "sync.Pool written correctly":
		return report.RoleSyncPoolCorrect
	case "reuse":
		return report.RoleReuse
	case "published":
		return "published"
	}
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			for _, v := range c.Variants {
				if v.Name == name {
					if v.Role == report.RoleOther {
						return "other: " + v.Name
					}
					return v.Role
				}
			}
		}
	}
	t.Fatalf("no variant named %q", name)
	return ""
}

// TestChartColours: every implementation has one colour on the whole page,
// in every chart and legend, and no two share one. The speedup chart gave
// its series colours by position and the curve chart its lines by
// position, so that blue was sync.Pool written correctly in one and reuse
// in the other (issue 60).
func TestChartColours(t *testing.T) {
	r := chartsFixture()
	_, page := writePage(t, r)
	svgs := regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(string(page), -1)
	if len(svgs) < 3 {
		t.Fatalf("%d charts on the page, want the speedups, a curve and the retained heap", len(svgs))
	}
	colours := map[string]map[string]bool{} // role -> colours
	see := func(chart, name, colour string) {
		role := roleOf(t, r, name)
		if colours[role] == nil {
			colours[role] = map[string]bool{}
		}
		if !colours[role][colour] && len(colours[role]) > 0 {
			t.Errorf("%s: %q (%s) drawn in %s, elsewhere in %v", chart, name, role, colour, colours[role])
		}
		colours[role][colour] = true
	}
	bar := regexp.MustCompile(`<rect class="bar"[^>]* fill="([^"]+)"><title>([^<]*)</title>`)
	key := regexp.MustCompile(`<rect x="\d+" y="\d+" width="12" height="12" fill="([^"]+)"/><text [^>]*>([^<]*)</text>`)
	line := regexp.MustCompile(`<circle class="point"[^>]* fill="([^"]+)"><title>([^<]*): `)
	for _, svg := range svgs {
		title := regexp.MustCompile(`aria-label="([^"]*)"`).FindStringSubmatch(svg)[1]
		unescape := strings.NewReplacer("&gt;", ">", "&lt;", "<", "&amp;", "&", "&#34;", `"`, "&#39;", "'").Replace
		for _, m := range key.FindAllStringSubmatch(svg, -1) {
			see(title+" legend", unescape(m[2]), m[1])
		}
		for _, m := range line.FindAllStringSubmatch(svg, -1) {
			see(title, unescape(m[2]), m[1])
		}
		for _, m := range bar.FindAllStringSubmatch(svg, -1) {
			// "label series: value": the speedup chart's series, or in the
			// retained chart the group's label, the variant.
			what := unescape(strings.SplitN(m[2], ": ", 2)[0])
			name := ""
			for _, s := range []string{"published", "sync.Pool as usually written", "sync.Pool written correctly", "reuse"} {
				if strings.HasSuffix(what, " "+s) {
					name = s
				}
			}
			if name == "" {
				name = strings.TrimSuffix(what, " retained")
			}
			see(title, name, m[1])
		}
	}
	byColour := map[string]string{}
	for role, cs := range colours {
		for c := range cs {
			if other, ok := byColour[c]; ok && other != role {
				t.Errorf("%s and %s are both drawn in %s", role, other, c)
			}
			byColour[c] = role
		}
	}
	if len(colours) < 6 {
		t.Errorf("saw the colours of %d implementations, want 6 (published, fresh allocation, two sync.Pools, reuse, a peer): %v", len(colours), colours)
	}
}

// TestChartTextFits renders the page in headless Chromium and measures
// every text of every chart with getBBox: none may reach past its chart's
// viewBox, and the retained chart's labels are the variants' whole names.
// W11's labels were clipped to 22 characters, and their starts cut off at
// the chart's left edge (issue 60).
func TestChartTextFits(t *testing.T) {
	bin := chromium(t)
	file, page := writePage(t, chartsFixture())
	probe := `<script>
window.addEventListener("load", () => {
  const out = [];
  for (const svg of document.querySelectorAll("svg")) {
    const vb = svg.viewBox.baseVal, sr = svg.getBoundingClientRect(), k = vb.width / sr.width;
    for (const t of svg.querySelectorAll("text")) {
      // The rendered box, transforms (the rotated axis label) included, in
      // the viewBox's units.
      const r = t.getBoundingClientRect();
      const b = {x: (r.left - sr.left) * k, y: (r.top - sr.top) * k, width: r.width * k, height: r.height * k};
      if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
        out.push(svg.getAttribute("aria-label") + ": " + JSON.stringify(t.textContent) + " at [" + [b.x, b.y, b.width, b.height].map(v => v.toFixed(1)) + "] in [" + [vb.x, vb.y, vb.width, vb.height] + "]");
    }
  }
  const p = document.createElement("pre");
  p.id = "textfits";
  p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});
</script></body>`
	probed := strings.Replace(string(page), "</body>", probe, 1)
	if err := os.WriteFile(file, []byte(probed), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, file, "--virtual-time-budget=5000", "--dump-dom"))
	m := regexp.MustCompile(`(?s)<pre id="textfits">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's probe did not report:\n%.2000s", dom)
	}
	var out []string
	if err := json.Unmarshal([]byte(strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(m[1])), &out); err != nil {
		t.Fatalf("probe output %q: %v", m[1], err)
	}
	for _, o := range out {
		t.Errorf("text past its chart: %s", o)
	}
	for _, name := range []string{"sync.Pool of *bytes.Buffer", "libp2p/go-buffer-pool, a peer with a long name"} {
		if !strings.Contains(string(page), ">"+strings.ReplaceAll(name, ">", "&gt;")+"</text>") {
			t.Errorf("the retained chart does not label %q with its whole name", name)
		}
	}
}
