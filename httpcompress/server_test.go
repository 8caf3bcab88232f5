//go:build !js && !wasip1

package httpcompress_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/httpcompress"
)

// rawClient sees responses as sent: no transparent decompression.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 60 * time.Second}

func serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h) // listens on 127.0.0.1
	t.Cleanup(s.Close)
	return s
}

// fetch sends a request and returns the response with its raw body.
func fetch(t testing.TB, method, url string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := rawClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return resp, b
}

var pngHeader = []byte("\x89PNG\x0d\x0a\x1a\x0a")

func TestBehaviour(t *testing.T) {
	big, small := text(4000), text(100)
	type check struct {
		ce     string            // Content-Encoding wanted
		hdr    map[string]string // headers wanted ("" = absent)
		body   []byte            // decoded body wanted (nil: no check)
		status int
	}
	write := func(b []byte, set map[string]string, status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for k, v := range set {
				w.Header().Set(k, v)
			}
			if status != 0 {
				w.WriteHeader(status)
			}
			w.Write(b)
		}
	}
	gz := map[string]string{"Accept-Encoding": "gzip"}
	tests := []struct {
		name   string
		cfg    httpcompress.Config
		h      http.Handler
		method string
		reqHdr map[string]string
		want   check
	}{
		{name: "big", h: write(big, nil, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Vary": "Accept-Encoding", "Content-Type": "text/plain; charset=utf-8"}}},
		{name: "small", h: write(small, nil, 0), reqHdr: gz,
			want: check{body: small, hdr: map[string]string{"Vary": "Accept-Encoding", "Content-Length": "100"}}},
		{name: "exactly MinSize", h: write(text(1024), nil, 0), reqHdr: gz, want: check{ce: "gzip", body: text(1024)}},
		{name: "one under MinSize", h: write(text(1023), nil, 0), reqHdr: gz, want: check{body: text(1023)}},
		{name: "MinSize negative compresses anything", cfg: httpcompress.Config{MinSize: -1}, h: write(small, nil, 0), reqHdr: gz, want: check{ce: "gzip", body: small}},
		{name: "empty body", h: write(nil, nil, 0), reqHdr: gz, want: check{body: []byte{}, hdr: map[string]string{"Vary": "Accept-Encoding"}}},
		{name: "no Accept-Encoding", h: write(big, nil, 0), want: check{body: big, hdr: map[string]string{"Vary": "Accept-Encoding"}}},
		{name: "gzip;q=0", h: write(big, nil, 0), reqHdr: map[string]string{"Accept-Encoding": "gzip;q=0"}, want: check{body: big, hdr: map[string]string{"Vary": "Accept-Encoding"}}},
		{name: "star", h: write(big, nil, 0), reqHdr: map[string]string{"Accept-Encoding": "*"}, want: check{ce: "gzip", body: big}},
		{name: "identity refused compresses small", h: write(small, nil, 0), reqHdr: map[string]string{"Accept-Encoding": "gzip, identity;q=0"}, want: check{ce: "gzip", body: small}},
		{name: "Content-Length big", h: write(big, map[string]string{"Content-Length": "4000"}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big}},
		{name: "Content-Length small", h: write(small, map[string]string{"Content-Length": "100"}, 0), reqHdr: gz,
			want: check{body: small, hdr: map[string]string{"Content-Length": "100"}}},
		{name: "image/png by header", h: write(big, map[string]string{"Content-Type": "image/png"}, 0), reqHdr: gz, want: check{body: big}},
		{name: "image/png sniffed", h: write(append(pngHeader, big...), nil, 0), reqHdr: gz,
			want: check{body: append(pngHeader, big...), hdr: map[string]string{"Content-Type": "image/png"}}},
		{name: "ContentTypes option", cfg: httpcompress.Config{ContentTypes: func(string) bool { return false }}, h: write(big, nil, 0), reqHdr: gz, want: check{body: big}},
		{name: "handler set Content-Encoding", h: write(big, map[string]string{"Content-Encoding": "br"}, 0), reqHdr: gz,
			want: check{body: big, hdr: map[string]string{"Content-Encoding": "br"}}},
		{name: "Vary kept", h: write(big, map[string]string{"Vary": "Origin"}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Vary": "Origin,Accept-Encoding"}}},
		{name: "Vary not doubled", h: write(big, map[string]string{"Vary": "accept-encoding"}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Vary": "accept-encoding"}}},
		{name: "ETag weakened", h: write(big, map[string]string{"ETag": `"abc"`}, 0), reqHdr: gz, want: check{ce: "gzip", body: big, hdr: map[string]string{"Etag": `W/"abc"`}}},
		{name: "weak ETag kept", h: write(big, map[string]string{"ETag": `W/"abc"`}, 0), reqHdr: gz, want: check{ce: "gzip", body: big, hdr: map[string]string{"Etag": `W/"abc"`}}},
		{name: "ETag uncompressed untouched", h: write(small, map[string]string{"ETag": `"abc"`}, 0), reqHdr: gz, want: check{body: small, hdr: map[string]string{"Etag": `"abc"`}}},
		{name: "ETag suffixed", cfg: httpcompress.Config{ETag: httpcompress.ETagSuffix}, h: write(big, map[string]string{"ETag": `"abc"`}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Etag": `"abc-gzip"`}}},
		{name: "ETag dropped", cfg: httpcompress.Config{ETag: httpcompress.ETagDrop}, h: write(big, map[string]string{"ETag": `"abc"`}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Etag": ""}}},
		{name: "ETag kept", cfg: httpcompress.Config{ETag: httpcompress.ETagKeep}, h: write(big, map[string]string{"ETag": `"abc"`}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Etag": `"abc"`}}},
		{name: "Accept-Ranges removed", h: write(big, map[string]string{"Accept-Ranges": "bytes"}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Accept-Ranges": ""}}},
		{name: "KeepAcceptRanges", cfg: httpcompress.Config{KeepAcceptRanges: true}, h: write(big, map[string]string{"Accept-Ranges": "bytes"}, 0), reqHdr: gz,
			want: check{ce: "gzip", body: big, hdr: map[string]string{"Accept-Ranges": "bytes"}}},
		{name: "Content-Range passes", h: write(big, map[string]string{"Content-Range": "bytes 0-3999/9000"}, http.StatusPartialContent), reqHdr: gz,
			want: check{body: big, status: 206}},
		{name: "HEAD", h: write(big, nil, 0), method: http.MethodHead, reqHdr: gz, want: check{body: []byte{}, hdr: map[string]string{"Vary": "Accept-Encoding", "Content-Encoding": ""}}},
		{name: "204", h: write(nil, nil, http.StatusNoContent), reqHdr: gz, want: check{body: []byte{}, status: 204}},
		{name: "304 weakened", h: write(nil, map[string]string{"ETag": `"abc"`}, http.StatusNotModified), reqHdr: gz, want: check{body: []byte{}, status: 304, hdr: map[string]string{"Etag": `W/"abc"`}}},
		{name: "304 identity", h: write(nil, map[string]string{"ETag": `"abc"`}, http.StatusNotModified), want: check{body: []byte{}, status: 304, hdr: map[string]string{"Etag": `"abc"`}}},
		{name: "404 compressed", h: write(big, nil, http.StatusNotFound), reqHdr: gz, want: check{ce: "gzip", body: big, status: 404}},
		{name: "status kept", h: write(small, nil, http.StatusTeapot), reqHdr: gz, want: check{body: small, status: 418}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mw, err := httpcompress.New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := serve(t, mw(tc.h))
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			resp, raw := fetch(t, method, s.URL, tc.reqHdr)
			if got := resp.Header.Get("Content-Encoding"); tc.want.hdr["Content-Encoding"] == "" && got != tc.want.ce {
				t.Errorf("Content-Encoding = %q, want %q", got, tc.want.ce)
			}
			wantStatus := tc.want.status
			if wantStatus == 0 {
				wantStatus = 200
			}
			if resp.StatusCode != wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, wantStatus)
			}
			for k, v := range tc.want.hdr {
				if got := strings.Join(resp.Header.Values(k), ","); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if cl := resp.Header.Get("Content-Length"); cl != "" && method != http.MethodHead && cl != strconv.Itoa(len(raw)) {
				t.Errorf("Content-Length = %s, body has %d bytes", cl, len(raw))
			}
			body := raw
			if tc.want.ce == "gzip" {
				body = gunzip(t, raw)
			}
			if tc.want.body != nil && !bytes.Equal(body, tc.want.body) {
				t.Errorf("body: %d bytes, want %d (%.40q vs %.40q)", len(body), len(tc.want.body), body, tc.want.body)
			}
		})
	}
}

type textprotoHeader = textproto.MIMEHeader

func newGzipReader(r io.Reader) (*gzip.Reader, error) { return gzip.NewReader(r) }
