package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestResponseLengths: each response comes within one item of its length
// (less the digits of a request number below a million)
// (or holds every item), and each variant writes the same JSON, through
// Bytes and through WriteTo.
func TestResponseLengths(t *testing.T) {
	b := newBody(4096, 1.2, 1<<20, 1)
	var want []string
	for i := range 64 {
		v := b.value(i)
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n, got := b.lengths[i], len(enc)+1
		if len(v.Items) < itemCount && (got < n-8 || got > n+300) {
			t.Errorf("response %d: %d bytes, want %d to %d", i, got, n-8, n+300)
		}
		want = append(want, string(enc)+"\n")
	}
	for name, newEnc := range encoders() {
		enc := newEnc()
		for i := range 64 {
			v := b.value(i)
			rec := httptest.NewRecorder()
			if err := enc(rec, &v, i%2 == 1); err != nil {
				t.Fatalf("%s: response %d: %v", name, i, err)
			}
			if got := rec.Body.String(); got != want[i] {
				t.Fatalf("%s: response %d: %d bytes, want %d, not the same JSON", name, i, len(got), len(want[i]))
			}
			if cl := rec.Header().Get("Content-Length"); cl != strings.TrimSpace(cl) || cl == "" {
				t.Errorf("%s: response %d: Content-Length %q", name, i, cl)
			}
		}
	}
}

func TestVerdict(t *testing.T) {
	rep := &report{Variants: []string{"nopool", "syncpool", "bytebuf"}, Medians: map[string]result{
		"nopool":   {PerSecond: 50, VmHWMKiB: 10},
		"syncpool": {PerSecond: 100, VmHWMKiB: 30},
		"bytebuf":  {PerSecond: 97, VmHWMKiB: 20},
	}}
	if got := verdict(rep); !strings.Contains(got, "**met**") {
		t.Errorf("verdict = %q, want met", got)
	}
	rep.Medians["bytebuf"] = result{PerSecond: 96, VmHWMKiB: 20}
	if got := verdict(rep); !strings.Contains(got, "**not met**") {
		t.Errorf("at 0.96 of the throughput: verdict = %q, want not met", got)
	}
	rep.Medians["bytebuf"] = result{PerSecond: 100, VmHWMKiB: 31}
	if got := verdict(rep); !strings.Contains(got, "**not met**") {
		t.Errorf("at more RSS than syncpool: verdict = %q, want not met", got)
	}
	var buf bytes.Buffer
	writeMarkdown(&buf, rep)
	if !strings.Contains(buf.String(), "| syncpool | 100 | 1.00 |") {
		t.Errorf("table:\n%s\nwant a line for syncpool at 1.00 of the best pool", buf.String())
	}
}
