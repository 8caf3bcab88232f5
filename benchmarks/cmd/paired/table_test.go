package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteTable checks the merge of records into the README's table: each
// column's median and range, the verdict against the target, and that only
// the text between the markers changes.
func TestWriteTable(t *testing.T) {
	dir := t.TempDir()
	recs := filepath.Join(dir, "r.jsonl")
	var lines []string
	for i, ratio := range []float64{0.97, 0.99, 1.04} { // median 0.99: within 1.00
		for _, c := range []struct {
			name  string
			ratio float64
		}{{"pool-ptr", ratio}, {"hooks", ratio + 0.1}} { // hooks median 1.09: over 1.03
			b, _ := json.Marshal(record{Bin: []string{"plain", "pad", "plain"}[i], Layout: "var", Procs: 1, Mode: "serial",
				Case: c.name, Ratio: c.ratio, BaseNs: 10, OursNs: 10 * c.ratio, Rounds: 41, Load: "2.5"})
			lines = append(lines, string(b))
		}
	}
	if err := os.WriteFile(recs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(dir, "README.md")
	const before, after = "# Title\n\nabove\n", "\nbelow\n"
	if err := os.WriteFile(readme, []byte(before+beginMarker+"\nold table\n"+endMarker+after), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeTable([]string{recs}, readme); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if !strings.HasPrefix(doc, before+beginMarker+"\n") || !strings.HasSuffix(doc, endMarker+after) {
		t.Errorf("text outside the markers changed:\n%s", doc)
	}
	if strings.Contains(doc, "old table") {
		t.Errorf("the old table is still there:\n%s", doc)
	}
	for _, want := range []string{
		"| `Pool[*T]` / `sync.Pool` of `*T` | 1.00× | 0.99× (0.97–1.04) | 10.0 / 9.9 | yes |",
		"| `Pool[*T]` with Reset, Accept / the same inline | 1.03× | 1.09× (1.07–1.14) | 10.0 / 10.9 | no |",
		"× 2 binaries (pad, plain)",
		"load average during the runs 2.5–2.5",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("table lacks %q:\n%s", want, doc)
		}
	}
	if err := os.WriteFile(readme, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeTable([]string{recs}, readme); err == nil {
		t.Error("writeTable into a file without markers: err = nil, want an error")
	}
}
