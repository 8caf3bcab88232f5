package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/race"
)

// releaseLines returns the commands of README.md's block between
// <!-- install-release begin --> and <!-- install-release end -->: what a
// user runs once a release is tagged, one go command a line.
func releaseLines(readme string) ([]string, error) {
	const begin, end = "<!-- install-release begin -->", "<!-- install-release end -->"
	i := strings.Index(readme, begin)
	j := strings.Index(readme, end)
	if i < 0 || j < i {
		return nil, fmt.Errorf("README.md has no block between %s and %s", begin, end)
	}
	var lines []string
	for _, l := range strings.Split(readme[i+len(begin):j], "\n") {
		l, _, _ = strings.Cut(l, " #") // a comment after the command
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		if !strings.HasPrefix(l, "go ") {
			return nil, fmt.Errorf("README.md's release lines: %q is not a go command", l)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("README.md's release block is empty")
	}
	return lines, nil
}

// versionRE matches the version of a module query, path@vX.Y.Z.
var versionRE = regexp.MustCompile(`@(v[0-9][^\s]*)`)

// releaseVersion returns the one version the lines name.
func releaseVersion(lines []string) (string, error) {
	version := ""
	for _, l := range lines {
		for _, m := range versionRE.FindAllStringSubmatch(l, -1) {
			if version != "" && m[1] != version {
				return "", fmt.Errorf("README.md's release lines name %s and %s: one release, one version", version, m[1])
			}
			version = m[1]
		}
	}
	if version == "" {
		return "", fmt.Errorf("README.md's release lines name no version")
	}
	return version, checkVersion(version)
}

// TestReadmeReleaseLines runs README.md's lines for after a release, as a
// user would in a module of their own, against a module proxy that the
// release writes from the working tree at the version the lines name, as
// the tags will hold it: each go get and go install must succeed, the user's
// go.mod must then require the modules at that version without a replace,
// keep its go line, and build code that uses them, and the installed
// poolvet must run.
func TestReadmeReleaseLines(t *testing.T) {
	needGo(t)
	if race.Enabled || debug.Enabled || nolinkname || strconv.IntSize == 32 {
		t.Skip("builds modules with the go command; the native run covers the release")
	}
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := releaseLines(string(readme))
	if err != nil {
		t.Fatal(err)
	}
	version, err := releaseVersion(lines)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Cleanup(func() { removeAll(tmp) }) // the module cache is read-only
	proxyDir := filepath.Join(tmp, "proxy")
	r := &release{root: root, version: version, proxy: proxyDir, base: "none", dryRun: true, noBuild: true, log: t.Logf}
	if err := r.run(); err != nil {
		t.Fatal(err)
	}

	goLine := regexp.MustCompile(`(?m)^go (\S+)$`)
	m := goLine.FindSubmatch(mustRead(t, filepath.Join(root, "go.mod")))
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	dir := filepath.Join(tmp, "user")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/user\n\ngo "+string(m[1])+"\n")
	// The third-party sums reuseprom already checked, so that the test needs
	// no checksum database; this repository's modules are GONOSUMDB.
	write(t, filepath.Join(dir, "go.sum"), string(mustRead(t, filepath.Join(root, "reuseprom", "go.sum"))))
	env, err := r.env(tmp, proxyDir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "bin")
	env = append(env, "GOBIN="+bin)
	for _, l := range lines {
		if _, err := run(dir, env, "go", strings.Fields(l)[1:]...); err != nil {
			t.Fatalf("README.md's release line %q: %v", l, err)
		}
		t.Logf("ok: %s", l)
	}

	gomod := string(mustRead(t, filepath.Join(dir, "go.mod")))
	for _, mod := range []string{"github.com/reuse-go/reuse", "github.com/reuse-go/reuse/reuseprom"} {
		if !strings.Contains(gomod, mod+" "+version) {
			t.Errorf("go.mod after README.md's release lines:\n%s\nwant %s %s", gomod, mod, version)
		}
	}
	if strings.Contains(gomod, "replace") || goLine.FindStringSubmatch(gomod)[1] != string(m[1]) {
		t.Errorf("go.mod after README.md's release lines:\n%s\nwant no replace, and go %s kept", gomod, m[1])
	}
	write(t, filepath.Join(dir, "main.go"), userMain)
	out, err := run(dir, env, "go", "run", ".")
	if err != nil {
		t.Fatalf("a program using the released modules: %v", err)
	}
	if want := "reuse_pool_news_total 1\n"; out != want {
		t.Errorf("the program printed %q, want %q", out, want)
	}
	if _, err := run(dir, env, filepath.Join(bin, "poolvet"), "./..."); err != nil {
		t.Errorf("the poolvet README.md's release lines installed: %v", err)
	}
}

// TestReleaseLinesRefused shows the checks of the README's block can fail:
// no block, a line that is not a go command, two versions.
func TestReleaseLinesRefused(t *testing.T) {
	const b, e = "<!-- install-release begin -->\n```sh\n", "```\n<!-- install-release end -->\n"
	if _, err := releaseLines("no block"); err == nil {
		t.Error("releaseLines without the markers: no error")
	}
	if _, err := releaseLines(b + "curl https://example.com | sh\n" + e); err == nil || !strings.Contains(err.Error(), "not a go command") {
		t.Errorf("releaseLines with a curl line: err = %v, want one saying it is not a go command", err)
	}
	lines, err := releaseLines(b + "go get m@v0.2.0\ngo install m/cmd/x@v0.3.0 # the tool\n" + e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := releaseVersion(lines); err == nil || !strings.Contains(err.Error(), "v0.2.0 and v0.3.0") {
		t.Errorf("releaseVersion(%q): err = %v, want one naming both versions", lines, err)
	}
	if _, err := releaseVersion([]string{"go get m@latest"}); err == nil {
		t.Error("releaseVersion of @latest: no error")
	}
}

func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// userMain is a program of a user's own module that uses the core and
// reuseprom.
const userMain = `package main

import (
	"bytes"
	"fmt"
	"log"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reuseprom"
)

func main() {
	fmt.Printf("reuse_pool_news_total %v\n", news())
}
` + newsFunc
