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
	"sync"
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
	serverOnce.Do(func() { serverData, serverModule = runServer(t) })
	if serverData == nil {
		t.Skip("no server profile")
	}
	p, err := profile.ParseData(serverData)
	if err != nil {
		t.Fatal(err)
	}
	return p, serverModule
}

var (
	serverOnce   sync.Once
	serverData   []byte
	serverModule string
)

// runServer builds and runs the server once per test binary, and returns
// its profile's bytes and its module's path.
func runServer(t *testing.T) ([]byte, string) {
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
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return data, modulePath(gomod)
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

// TestAdviseServerFromClone is advise on the same profile as issue 60 ran
// it the second time: from reuse's own clone, as docs/REPORT.md said,
// without -module. The working directory's module is reuse's, and 6 of
// the 10 sites to pool were reuse's internals (codec.(*Codec).OpenReader,
// bytebuf.(*Pool).newBuffer, jsonpool.readLimited). Now the output says
// which code it takes for the user's and why, no site to pool is reuse's,
// and what reuse allocates is under "do not pool" at the user's line.
func TestAdviseServerFromClone(t *testing.T) {
	p, module := serverProfile(t)
	if m := mainModule(); !isReuse(m+".f") && !strings.HasPrefix(m, reusePath) {
		t.Fatalf("the test runs in module %q, want one of reuse's", m)
	}
	file := filepath.Join(t.TempDir(), "heap.pb.gz")
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"-top", "100", file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	t.Logf("advice:\n%s", text)
	if !strings.Contains(text, "Your code: inferred from the profile") || !strings.Contains(text, "is reuse's own") || !strings.Contains(text, "Your packages in this profile: example.com/jsonserver/api, main.") {
		t.Errorf("the advice does not say which code it takes for the user's (want %s/api, inferred)", module)
	}
	out.Reset()
	if err := run([]string{"-json", file}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var a Advice
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Pool) == 0 {
		t.Fatal("nothing to pool")
	}
	for _, s := range a.Pool {
		if strings.HasPrefix(s.Function, reusePath) || isReuse(s.Inside) {
			t.Errorf("advised to pool %s (inside %q): reuse's own code", s.Function, s.Inside)
		}
	}
	if s := slicesSite(a.Pool, module+"/api.(*API).ServeHTTP"); s == nil || !strings.Contains(s.Use, "reuse.Slices[Item] with Zero set") {
		t.Errorf("the handler's []Item: %+v; want reuse.Slices[Item] with Zero", s)
	}
	inside := 0
	for _, s := range a.Skip {
		if !isReuse(s.Inside) || !strings.Contains(s.Why, "reuse's") {
			continue // encoding/json's memory, under jsonpool
		}
		inside++
		if strings.HasPrefix(s.Function, reusePath) || !strings.Contains(s.Why, "the call of yours that leads there is "+s.Function) {
			t.Errorf("site inside %s: at %s, because %q; want the user's call named", s.Inside, s.Function, s.Why)
		}
	}
	if inside == 0 {
		t.Error("no site inside reuse among those not to pool")
	}
}
