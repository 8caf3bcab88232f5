//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
)

// serveFile serves content with http.ServeContent behind mw, with the
// ETag "v1" and a fixed modification time.
func serveFile(t *testing.T, mw func(http.Handler) http.Handler, content []byte) (url string, modified time.Time) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	modified = time.Unix(1e9, 0).UTC()
	s := serve(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if r.URL.Query().Get("etag") != "no" {
			w.Header().Set("ETag", `"v1"`)
		}
		http.ServeContent(w, r, "f.txt", modified, f)
	})))
	return s.URL, modified
}

// TestNotModifiedETag: a 304 carries the ETag of the response it
// revalidates (RFC 9110 section 15.4.5): the compressed response's
// rewritten tag for a client that holds it, the handler's own for a client
// that holds the uncompressed response. Before the fix every 304 carried
// the handler's strong "v1".
func TestNotModifiedETag(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mode      httpcompress.ETagMode
		sent      string // If-None-Match, from the 200 the client holds
		want304   string // the 304's ETag
		wantMatch bool   // the handler answers 304 (it compares weakly)
	}{
		{"weaken, holds compressed", httpcompress.ETagWeaken, `W/"v1"`, `W/"v1"`, true},
		{"weaken, holds both", httpcompress.ETagWeaken, `"x", W/"v1"`, `W/"v1"`, true},
		{"weaken, holds uncompressed", httpcompress.ETagWeaken, `"v1"`, `"v1"`, true},
		{"suffix, holds uncompressed", httpcompress.ETagSuffix, `"v1"`, `"v1"`, true},
		{"drop, revalidates by tag", httpcompress.ETagDrop, `"v1"`, `"v1"`, true},
		{"keep", httpcompress.ETagKeep, `W/"v1"`, `"v1"`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mw, err := httpcompress.New(httpcompress.Config{ETag: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			url, _ := serveFile(t, mw, text(20000))
			resp, _ := fetch(t, "GET", url, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tc.sent})
			if resp.StatusCode != http.StatusNotModified {
				t.Fatalf("status %d, want 304", resp.StatusCode)
			}
			if got := resp.Header.Get("Etag"); got != tc.want304 {
				t.Errorf("304 ETag = %q, want %q", got, tc.want304)
			}
			if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("304 headers: %v", resp.Header)
			}
		})
	}
	// ETagSuffix: a handler that strips the suffix from If-None-Match, as
	// the mode requires, answers the client holding "v1-gzip" with a 304
	// that carries "v1-gzip" again.
	mw, _ := httpcompress.New(httpcompress.Config{ETag: httpcompress.ETagSuffix})
	s := serve(t, mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if inm := r.Header.Get("If-None-Match"); inm == `"v1-gzip"` || inm == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(text(20000))
	})))
	resp, _ := fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Etag") != `"v1-gzip"` {
		t.Fatalf("200 under ETagSuffix: ETag %q", resp.Header.Get("Etag"))
	}
	resp, _ = fetch(t, "GET", s.URL, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"v1-gzip"`})
	if resp.StatusCode != 304 || resp.Header.Get("Etag") != `"v1-gzip"` {
		t.Errorf("304 under ETagSuffix: status %d, ETag %q, want 304 and \"v1-gzip\"", resp.StatusCode, resp.Header.Get("Etag"))
	}

	// A client revalidating by date only, whose 200 had its ETag dropped,
	// gets no ETag on the 304 either.
	mw, _ = httpcompress.New(httpcompress.Config{ETag: httpcompress.ETagDrop})
	url, modified := serveFile(t, mw, text(20000))
	resp, _ = fetch(t, "GET", url, map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Etag") != "" || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("200 under ETagDrop: %v", resp.Header)
	}
	resp, _ = fetch(t, "GET", url, map[string]string{"Accept-Encoding": "gzip", "If-Modified-Since": modified.Format(http.TimeFormat)})
	if resp.StatusCode != 304 || resp.Header.Get("Etag") != "" {
		t.Errorf("If-Modified-Since under ETagDrop: status %d, ETag %q, want 304 and none", resp.StatusCode, resp.Header.Get("Etag"))
	}
	// Without Accept-Encoding nothing is compressed, and the 304 is the
	// handler's.
	resp, _ = fetch(t, "GET", url+"?etag=yes", map[string]string{"If-None-Match": `W/"v1"`})
	if resp.StatusCode != 304 || resp.Header.Get("Etag") != `"v1"` {
		t.Errorf("identity 304: status %d, ETag %q", resp.StatusCode, resp.Header.Get("Etag"))
	}
}

// TestIfRangeByDate: a compressed response keeps Last-Modified, so an
// If-Range date cannot tell which body the client holds part of. A
// request that accepts a coding gets the whole response, compressed,
// never a 206 of the uncompressed body to splice onto compressed bytes.
// If-Range with an entity tag still works: the compressed response's tag
// is weak, so only a client holding the uncompressed body can send "v1".
// Before the fix the date request got a 206 of the uncompressed body.
func TestIfRangeByDate(t *testing.T) {
	content := text(20000)
	url, modified := serveFile(t, httpcompress.Handler, content)
	date := modified.Format(http.TimeFormat)
	for _, tc := range []struct {
		name, path string
		hdr        map[string]string
		status     int
		ce         string
		body       []byte
	}{
		{"date, accepts gzip", "?etag=no", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=100-199", "If-Range": date}, 200, "gzip", content},
		{"date, with ETag, accepts gzip", "", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=100-199", "If-Range": date}, 200, "gzip", content},
		{"date, identity", "?etag=no", map[string]string{"Range": "bytes=100-199", "If-Range": date}, 206, "", content[100:200]},
		{"strong tag, accepts gzip", "", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=100-199", "If-Range": `"v1"`}, 206, "", content[100:200]},
		{"no If-Range, accepts gzip", "", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=100-199"}, 206, "", content[100:200]},
	} {
		resp, raw := fetch(t, "GET", url+tc.path, tc.hdr)
		body := raw
		if tc.ce == "gzip" && resp.Header.Get("Content-Encoding") == "gzip" {
			body = gunzip(t, raw)
		}
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Encoding") != tc.ce || !bytes.Equal(body, tc.body) {
			t.Errorf("%s: status %d, Content-Encoding %q, %d bytes; want %d, %q, %d bytes",
				tc.name, resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), tc.status, tc.ce, len(tc.body))
		}
	}
}
