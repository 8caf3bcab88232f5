package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// serverProfile builds testdata/jsonserver, a JSON API server of a user's
// module (example.com/jsonserver) with jsonpool, bytebuf and khttp, runs it
// on 127.0.0.1 with every allocation sampled, posts it gzip bodies of
// varying sizes asking for zstd, gzip and plain answers, and returns its
// heap profile and its module's path: a real program's profile, the oracle
// of what advise must say.
func serverProfile(t *testing.T) (*profile.Profile, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "jsonserver"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "jsonserver")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build testdata/jsonserver: %v\n%s", err, out)
	}
	srv := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Kill() // the server's own PID, started here
		srv.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url := regexp.MustCompile(`http://\S+`).FindString(line)
	if err != nil || url == "" {
		t.Fatalf("the server said %q (%v), want its address", line, err)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	type item struct {
		ID   int      `json:"id"`
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}
	for i := range 200 {
		items := make([]item, 50+(i*37)%1500) // about 3 KB to 100 KB of JSON
		for k := range items {
			items[k] = item{k, strings.Repeat("n", k%3*20), []string{"a", "b"}}
		}
		body, _ := json.Marshal(map[string]any{"items": items})
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(body)
		zw.Close()
		req, _ := http.NewRequest("POST", url+"/items", &z)
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("Accept-Encoding", []string{"zstd", "gzip", "identity"}[i%3])
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /items: %s", resp.Status)
		}
	}
	resp, err := client.Get(url + "/debug/pprof/allocs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p, err := profile.Parse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return p, modulePath(gomod)
}

// TestAdviseServer is advise on a real server's heap profile, as issue 60
// ran it: 6 of its 8 suggestions pointed inside code the user cannot
// change (jsonpool's readLimited, klauspost/compress's encoders, which
// khttp pools already). Now every suggestion names a line of the user's
// module; what reuse already pools is listed as not to pool, at the
// user's call that leads there, with the reason; and the []Item the
// handler makes, whose elements hold pointers, is to be pooled with Zero.
func TestAdviseServer(t *testing.T) {
	p, module := serverProfile(t)
	if module != "example.com/jsonserver" {
		t.Fatalf("testdata/jsonserver's module is %q", module)
	}
	opt := DefaultOptions()
	opt.Modules = []string{module}
	a, err := Analyze(p, opt)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	WriteText(&text, a, 100)
	t.Logf("advice:\n%s", text.String())
	user := func(fn string) bool { return strings.HasPrefix(fn, module+"/") || strings.HasPrefix(fn, "main.") }
	for _, s := range a.Pool {
		if !user(s.Function) || isReuse(s.Inside) || strings.HasPrefix(s.Inside, "github.com/klauspost/") {
			t.Errorf("advised to pool %s (inside %q): not the user's code", s.Function, s.Inside)
		}
	}
	slice := slicesSite(a.Pool, module+"/api.(*API).ServeHTTP")
	if slice == nil {
		t.Fatalf("the handler's make([]Item, ...) is not advised")
	}
	if !strings.Contains(slice.Use, "reuse.Slices[Item] with Zero set") || !strings.Contains(slice.Bound, "Zero: true, since Item holds pointers") {
		t.Errorf("the []Item site: use %q, bound %q; want reuse.Slices[Item] with Zero", slice.Use, slice.Bound)
	}
	// What reuse pools already, named at the handler's line.
	for _, want := range []struct{ inside, why string }{
		{reusePath + "/jsonpool.readLimited", "reuse's jsonpool"},
		{"github.com/klauspost/compress/zstd.", "already pooled"},
		{"github.com/klauspost/compress/flate.", "under reuse's"},
	} {
		found := false
		for _, s := range a.Skip {
			if strings.HasPrefix(s.Inside, want.inside) {
				found = true
				if !user(s.Function) || !strings.Contains(s.Why, want.why) {
					t.Errorf("site inside %s: at %s, because %q; want the user's line and %q", s.Inside, s.Function, s.Why, want.why)
				}
			}
		}
		if !found {
			t.Errorf("no site inside %s among those not to pool", want.inside)
		}
	}
}

// slicesSite returns the site of fn advised as a pool of slices.
func slicesSite(sites []Site, fn string) *Site {
	for i, s := range sites {
		if s.Function == fn && strings.Contains(s.Use, "reuse.Slices") {
			return &sites[i]
		}
	}
	return nil
}
