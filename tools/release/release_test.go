package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/race"
)

// needGo skips tests that run git and the go command where there are none
// (js/wasm, wasip1).
func needGo(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no subprocesses on " + runtime.GOOS)
	}
	for _, c := range []string{"go", "git"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("%s not found: %v", c, err)
		}
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := run(".", nil, "git", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	return strings.TrimSpace(out)
}

// TestEveryModuleHasLicense fails when a go.mod directory of the repository
// has no copy of the root LICENSE: a module's zip holds only its own
// directory, so without one the module is published without a licence.
func TestEveryModuleHasLicense(t *testing.T) {
	needGo(t)
	root := repoRoot(t)
	mods, err := findModules(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) < 5 {
		t.Errorf("findModules found %d modules, want at least 5 (root, benchmarks, examples, kgzip, reuseprom): %v", len(mods), mods)
	}
	if err := checkLicenses(root, mods); err != nil {
		t.Error(err)
	}
}

// TestCheckLicensesFails shows the check above can fail: a nested module
// without a LICENSE, and one with a different text.
func TestCheckLicensesFails(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "LICENSE"), "licence\n")
	write(t, filepath.Join(root, "b", "LICENSE"), "other\n")
	mods := []module{{".", "m"}, {"a", "m/a"}, {"b", "m/b"}}
	err := checkLicenses(root, mods)
	if err == nil || !strings.Contains(err.Error(), "m/a has no LICENSE") || !strings.Contains(err.Error(), "b/LICENSE differs") {
		t.Errorf("checkLicenses = %v, want errors for a/ (missing) and b/ (differs)", err)
	}
	write(t, filepath.Join(root, "a", "LICENSE"), "licence\n")
	write(t, filepath.Join(root, "b", "LICENSE"), "licence\n")
	if err := checkLicenses(root, mods); err != nil {
		t.Errorf("checkLicenses with every copy in place = %v, want nil", err)
	}
}

func TestChangelogFor(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	const top = "# Changelog\n\nIntro.\n"
	tests := []struct {
		name, in, want, err string
	}{
		{"rename", top + "\n## [Unreleased]\n\n- a\n\n## [v0.1.0] - 2026-01-01\n\n- b\n",
			top + "\n## [Unreleased]\n\n## [v0.2.0] - 2026-11-23\n\n- a\n\n## [v0.1.0] - 2026-01-01\n\n- b\n", ""},
		{"present", top + "\n## [Unreleased]\n\n## [v0.2.0] - 2026-11-01\n\n- a\n",
			top + "\n## [Unreleased]\n\n## [v0.2.0] - 2026-11-01\n\n- a\n", ""},
		{"empty unreleased", top + "\n## [Unreleased]\n\n## [v0.1.0] - 2026-01-01\n", "", "is empty"},
		{"no section", top, "", "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := changelogFor(tt.in, "v0.2.0", now)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("changelogFor: err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("changelogFor = %q, %v\nwant %q", got, err, tt.want)
			}
		})
	}
}

func TestMayBreak(t *testing.T) {
	tests := []struct {
		base, version string
		want          bool
	}{
		{"v0.1.0", "v0.1.1", false},
		{"v0.1.3", "v0.2.0", true},
		{"v0.9.0", "v1.0.0", true},
		{"v1.2.0", "v1.3.0", false},
		{"HEAD~3", "v0.2.0", false},
	}
	for _, tt := range tests {
		if got, why := mayBreak(tt.base, tt.version); got != tt.want {
			t.Errorf("mayBreak(%s, %s) = %v (%s), want %v", tt.base, tt.version, got, why, tt.want)
		}
	}
}

func TestSemver(t *testing.T) {
	for v, ok := range map[string]bool{
		"v0.1.0": true, "v1.2.3-rc.1": true, "v0.1": false, "0.1.0": false, "v01.0.0": false, "v0.1.0+build": false,
	} {
		if got := semverRE.MatchString(v); got != ok {
			t.Errorf("semverRE.MatchString(%q) = %v, want %v", v, got, ok)
		}
	}
	r := &release{version: "v2.0.0"}
	if err := r.run(); err == nil || !strings.Contains(err.Error(), "/v2") {
		t.Errorf("release v2.0.0: err = %v, want one about the /v2 suffix", err)
	}
}

// TestOutsideModule is the release's promise: once the tags exist, a module
// outside this repository depends on kgzip and reuseprom with nothing but
// require lines. The modules come from a GOPROXY directory that the release
// writes from the working tree, as the tags will hold it; the outside module
// has its own module cache, so nothing of this checkout can leak in.
func TestOutsideModule(t *testing.T) {
	needGo(t)
	if race.Enabled || debug.Enabled || nolinkname {
		t.Skip("builds modules with the go command; the native run covers the release")
	}
	if strconv.IntSize == 32 {
		// The packaging does not depend on the target; the modules' own
		// tests cover 32-bit code, and a cold cross build of Prometheus
		// here would triple the test's time.
		t.Skip("32-bit target: the native run covers the release")
	}
	root := repoRoot(t)
	const version = "v0.1.0"
	tmp := t.TempDir()
	t.Cleanup(func() { removeAll(tmp) }) // the module cache is read-only
	proxyDir := filepath.Join(tmp, "proxy")
	r := &release{root: root, version: version, proxy: proxyDir, base: "none", dryRun: true, noBuild: true,
		log: t.Logf}
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{
		"github.com/reuse-go/reuse/@v/list",
		"github.com/reuse-go/reuse/@v/" + version + ".zip",
		"github.com/reuse-go/reuse/kgzip/@v/" + version + ".mod",
		"github.com/reuse-go/reuse/reuseprom/@v/" + version + ".info",
	} {
		if _, err := os.Stat(filepath.Join(proxyDir, filepath.FromSlash(f))); err != nil {
			t.Errorf("proxy: %v", err)
		}
	}

	dir := filepath.Join(tmp, "outside")
	goMod := "module example.com/outside\n\ngo 1.24\n\nrequire (\n" +
		"\tgithub.com/reuse-go/reuse/kgzip " + version + "\n" +
		"\tgithub.com/reuse-go/reuse/reuseprom " + version + "\n)\n"
	write(t, filepath.Join(dir, "go.mod"), goMod)
	// The third-party sums the nested modules already checked, so the test
	// needs no checksum database; this repository's modules are GONOSUMDB.
	var sums []string
	for _, m := range []string{"kgzip", "reuseprom"} {
		data, err := os.ReadFile(filepath.Join(root, m, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, string(data))
	}
	write(t, filepath.Join(dir, "go.sum"), strings.Join(sums, ""))
	write(t, filepath.Join(dir, "main.go"), outsideMain)

	env, err := r.env(tmp, proxyDir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(dir, env, "go", "run", ".")
	if err != nil {
		t.Fatalf("outside module: %v", err)
	}
	if want := "round trip ok; reuse_pool_news_total 1\n"; out != want {
		t.Errorf("outside module printed %q, want %q", out, want)
	}
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "replace") || !strings.Contains(string(got), "github.com/reuse-go/reuse "+version) {
		t.Errorf("outside go.mod after the build:\n%s\nwant no replace, and the core at %s (required by kgzip and reuseprom)", got, version)
	}
}

const outsideMain = `package main

import (
	"bytes"
	"fmt"
	"log"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/kgzip"
	"github.com/reuse-go/reuse/reuseprom"
)

func main() {
	plain := bytes.Repeat([]byte("outside "), 100)
	z, err := kgzip.Compress(nil, plain, -1)
	if err != nil {
		log.Fatal(err)
	}
	back, err := kgzip.Decompress(nil, z, 1<<20)
	if err != nil || !bytes.Equal(back, plain) {
		log.Fatalf("round trip: %v", err)
	}
	fmt.Printf("round trip ok; reuse_pool_news_total %v\n", news())
}
` + newsFunc

// newsFunc is the part of the outside programs that reads, through
// reuseprom and a Prometheus registry, the News of a pool that served one
// Get and one Put.
const newsFunc = `
func news() float64 {
	pool := reuse.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
	pool.Put(pool.Get())
	pools := reuseprom.NewCollector()
	if err := pools.Register("buffers", &pool); err != nil {
		log.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(pools)
	families, err := reg.Gather()
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "reuse_pool_news_total" {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	log.Fatal("no reuse_pool_news_total")
	return 0
}
`

func write(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRequiresAreReleasable fails when a module requires another module of
// this repository at a version that cannot be fetched (the zero
// pseudo-version that `go mod edit -replace` leaves) or without the replace
// directive that development inside the repository relies on.
func TestRequiresAreReleasable(t *testing.T) {
	needGo(t)
	root := repoRoot(t)
	mods, err := findModules(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		gm, err := readGoMod(filepath.Join(root, m.Dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		replaced := map[string]string{}
		for _, r := range gm.Replace {
			replaced[r.Old.Path] = r.New.Path
		}
		for _, r := range gm.Require {
			o, ok := findModule(mods, r.Path)
			if !ok {
				continue
			}
			if !semverRE.MatchString(r.Version) || strings.HasPrefix(r.Version, "v0.0.0-") {
				t.Errorf("%s/go.mod: require %s %s: want a release version (scripts/release sets it), not a pseudo-version", m.Dir, r.Path, r.Version)
			}
			want, _ := filepath.Rel(filepath.Join(root, m.Dir), filepath.Join(root, o.Dir))
			if got, ok := replaced[r.Path]; !ok {
				t.Errorf("%s/go.mod: require %s without a replace directive: add replace %s => %s for development", m.Dir, r.Path, r.Path, filepath.ToSlash(want))
			} else if filepath.Clean(filepath.Join(root, m.Dir, got)) != filepath.Join(root, o.Dir) {
				t.Errorf("%s/go.mod: replace %s => %s, want => %s", m.Dir, r.Path, got, filepath.ToSlash(want))
			}
		}
	}
}

// TestWrite runs a release, not a dry run, on a repository of two modules
// made for the test: the nested module's requirement moves from the zero
// pseudo-version to the release, its missing replace directive is added,
// and CHANGELOG.md gets the release's heading.
func TestWrite(t *testing.T) {
	needGo(t)
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.24\n")
	write(t, filepath.Join(root, "m.go"), "package m\n\n// X is exported.\nconst X = 1\n")
	write(t, filepath.Join(root, "LICENSE"), "licence\n")
	write(t, filepath.Join(root, "sub", "LICENSE"), "licence\n")
	write(t, filepath.Join(root, "sub", "go.mod"), "module example.com/m/sub\n\ngo 1.24\n\nrequire example.com/m v0.0.0-00010101000000-000000000000\n")
	write(t, filepath.Join(root, "sub", "sub.go"), "package sub\n\nimport \"example.com/m\"\n\n// Y is exported.\nconst Y = m.X\n")
	write(t, filepath.Join(root, "CHANGELOG.md"), "# Changelog\n\n## [Unreleased]\n\n- first\n")
	if _, err := run(root, nil, "git", "init", "-q"); err != nil {
		t.Skip(err)
	}
	var logged strings.Builder
	r := &release{root: root, version: "v0.3.0", base: "none", noBuild: true,
		log: func(format string, args ...any) { fmt.Fprintf(&logged, format+"\n", args...) }}
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	gm, err := readGoMod(filepath.Join(root, "sub", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if len(gm.Require) != 1 || gm.Require[0].Version != "v0.3.0" {
		t.Errorf("sub/go.mod requires %+v, want example.com/m v0.3.0", gm.Require)
	}
	if len(gm.Replace) != 1 || gm.Replace[0].New.Path != ".." {
		t.Errorf("sub/go.mod replaces %+v, want example.com/m => ..", gm.Replace)
	}
	cl, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if !strings.Contains(string(cl), "## [Unreleased]\n\n## [v0.3.0] - ") {
		t.Errorf("CHANGELOG.md:\n%s\nwant the [Unreleased] entries under a v0.3.0 heading", cl)
	}
	if out := logged.String(); !strings.Contains(out, "git tag v0.3.0 && git tag sub/v0.3.0") || !strings.Contains(out, "nothing was pushed") {
		t.Errorf("release printed:\n%s\nwant the tags v0.3.0 and sub/v0.3.0", out)
	}
}

// TestAPICheck tags a one-package module at v0.1.0, changes an exported
// function's signature, and asks for releases after it: a patch release
// must fail with apidiff's report, a new minor version of v0 passes with
// the change listed. It installs the pinned apidiff, which the first time
// downloads and compiles golang.org/x/exp and x/tools.
func TestAPICheck(t *testing.T) {
	needGo(t)
	if race.Enabled || debug.Enabled || nolinkname || strconv.IntSize == 32 {
		t.Skip("the native run covers the release")
	}
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/api\n\ngo 1.24\n")
	write(t, filepath.Join(root, "api.go"), "package api\n\n// F is exported.\nfunc F(int) {}\n")
	write(t, filepath.Join(root, "LICENSE"), "licence\n")
	write(t, filepath.Join(root, "CHANGELOG.md"), "# Changelog\n\n## [Unreleased]\n\n- F takes a string\n")
	git := func(args ...string) {
		t.Helper()
		env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
		if _, err := run(root, env, "git", args...); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "v0.1.0")
	git("tag", "v0.1.0")
	write(t, filepath.Join(root, "api.go"), "package api\n\n// F is exported.\nfunc F(string) {}\n")

	var logged strings.Builder
	r := &release{root: root, version: "v0.1.1", dryRun: true, noBuild: true,
		log: func(format string, args ...any) { fmt.Fprintf(&logged, format+"\n", args...) }}
	err := r.run()
	if err == nil || !strings.Contains(err.Error(), "breaks the API of example.com/api since v0.1.0") {
		t.Fatalf("release v0.1.1 after an incompatible change: err = %v\n%s", err, logged.String())
	}
	if !strings.Contains(logged.String(), "F: changed from func(int) to func(string)") {
		t.Errorf("release v0.1.1 printed:\n%s\nwant apidiff's line for F", logged.String())
	}
	logged.Reset()
	r.version = "v0.2.0"
	if err := r.run(); err != nil {
		t.Errorf("release v0.2.0 (a new minor version of v0): %v\n%s", err, logged.String())
	}
	if !strings.Contains(logged.String(), "incompatible changes allowed: a new minor version of v0") {
		t.Errorf("release v0.2.0 printed:\n%s\nwant the change listed and allowed", logged.String())
	}
}
