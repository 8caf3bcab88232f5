// Command release prepares a release of every module of the repository at
// one version, and checks that each builds from the tags alone. It is run as
// scripts/release; see RELEASING.md.
//
// Usage:
//
//	scripts/release [-n] [-base REF] [-proxy DIR] VERSION
//
// It checks that every module has a LICENSE and that CHANGELOG.md has a
// section for VERSION (or an [Unreleased] one to rename). It stages every
// module as it will be tagged, with each requirement on another module of the
// repository set to VERSION, serves the staged modules from a GOPROXY
// directory, and builds every module from a copy without its replace
// directives, against that proxy alone. It compares each module's API with the
// release REF (default: the newest v* tag) with apidiff, and fails on an
// incompatible change unless VERSION is a new major version or v0. Then,
// unless -n is given, it writes the new requirements and the CHANGELOG
// heading, and prints the git commands that commit and tag the release. It
// never commits, tags or pushes anything itself.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// apidiffVersion pins the apidiff command, so that a new golang.org/x/exp
// cannot change what the release check reports.
const apidiffVersion = "golang.org/x/exp/cmd/apidiff@v0.0.0-20261014143641-f0251eb4aa3e"

func main() {
	dryRun := flag.Bool("n", false, "check only: write nothing to the repository")
	base := flag.String("base", "", "git ref of the release to compare the API with (default: the newest v* tag; none: skip)")
	proxy := flag.String("proxy", "", "write the GOPROXY directory here and keep it (default: a temporary directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: scripts/release [-n] [-base REF] [-proxy DIR] VERSION\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	root, err := run(".", nil, "git", "rev-parse", "--show-toplevel")
	if err != nil {
		fatal(err)
	}
	r := &release{
		root:    strings.TrimSpace(root),
		version: flag.Arg(0),
		proxy:   *proxy,
		base:    *base,
		dryRun:  *dryRun,
		log:     func(format string, args ...any) { fmt.Printf(format+"\n", args...) },
	}
	if err := r.run(); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "release: %v\n", err)
	os.Exit(1)
}

// A release is one run of the command.
type release struct {
	root    string
	version string
	proxy   string // GOPROXY directory; "" for a temporary one
	base    string // git ref to compare the API with; "" for the newest tag, "none" to skip
	dryRun  bool
	noBuild bool // skip building every module (tests that check the proxy alone)
	log     func(format string, args ...any)

	mods []module
}

// semverRE accepts vMAJOR.MINOR.PATCH with an optional pre-release.
var semverRE = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// run prepares the release: it checks the version, the licences and the
// CHANGELOG, serves the staged modules from a proxy, builds every module
// against it, compares the API with the base release, and then, unless
// r.dryRun, writes the requirements and the CHANGELOG and prints the git
// commands.
func (r *release) run() error {
	if err := checkVersion(r.version); err != nil {
		return err
	}
	mods, err := findModules(r.root)
	if err != nil {
		return err
	}
	r.mods = mods
	if err := checkLicenses(r.root, mods); err != nil {
		return err
	}
	changelog, err := os.ReadFile(filepath.Join(r.root, "CHANGELOG.md"))
	if err != nil {
		return err
	}
	newChangelog, err := changelogFor(string(changelog), r.version, time.Now())
	if err != nil {
		return err
	}

	tmp, err := os.MkdirTemp("", "release-")
	if err != nil {
		return err
	}
	defer removeAll(tmp)
	stageDir := filepath.Join(tmp, "stage")
	files, err := stage(r.root, stageDir, mods, r.version)
	if err != nil {
		return err
	}
	proxyDir, err := r.serve(tmp, stageDir, files)
	if err != nil {
		return err
	}
	if !r.noBuild {
		if err := r.buildAll(tmp, stageDir, proxyDir, files); err != nil {
			return err
		}
	}
	if err := r.apiCheck(tmp, stageDir); err != nil {
		return err
	}

	if r.dryRun {
		r.log("-n: nothing written")
		return nil
	}
	if err := r.write(newChangelog, string(changelog)); err != nil {
		return err
	}
	r.printCommands()
	return nil
}

// checkVersion fails unless version is a semantic version this command can
// release: one whose module paths need no /vN suffix.
func checkVersion(version string) error {
	m := semverRE.FindStringSubmatch(version)
	if m == nil {
		return fmt.Errorf("version %q is not of the form vMAJOR.MINOR.PATCH[-PRERELEASE]", version)
	}
	if m[1] != "0" && m[1] != "1" {
		return fmt.Errorf("version %s: a major version above 1 needs a /v%s suffix on every module path first", version, m[1])
	}
	return nil
}

// serve writes the staged modules, whose files are files, to the GOPROXY
// directory (r.proxy, or one under tmp) and returns its absolute path.
func (r *release) serve(tmp, stageDir string, files map[string][]string) (string, error) {
	proxyDir := r.proxy
	if proxyDir == "" {
		proxyDir = filepath.Join(tmp, "proxy")
	}
	proxyDir, err := filepath.Abs(proxyDir)
	if err != nil {
		return "", err
	}
	if err := writeProxy(proxyDir, stageDir, r.mods, files, r.version, time.Now()); err != nil {
		return "", err
	}
	r.log("proxy: %d modules at %s in %s", len(r.mods), r.version, proxyDir)
	return proxyDir, nil
}

// buildAll builds every staged module against the proxy alone.
func (r *release) buildAll(tmp, stageDir, proxyDir string, files map[string][]string) error {
	env, err := r.env(tmp, proxyDir)
	if err != nil {
		return err
	}
	for _, m := range r.mods {
		if err := buildFromProxy(filepath.Join(tmp, "check"), stageDir, m, r.mods, files[m.Dir], env); err != nil {
			return err
		}
		r.log("ok    %s builds against %s from the proxy alone", m.Path, r.version)
	}
	return nil
}

// write sets every module's requirements on the others to the release's
// version, and writes newChangelog when it differs from changelog.
func (r *release) write(newChangelog, changelog string) error {
	for _, m := range r.mods {
		if err := setRequires(filepath.Join(r.root, m.Dir), m, r.mods, r.version); err != nil {
			return err
		}
	}
	if newChangelog == changelog {
		return nil
	}
	return os.WriteFile(filepath.Join(r.root, "CHANGELOG.md"), []byte(newChangelog), 0o644)
}

// printCommands logs the git commands that commit, tag and push the release.
func (r *release) printCommands() {
	r.log("\nRequirements and CHANGELOG.md updated. Review, then commit and tag (nothing was pushed):\n")
	r.log("  git commit -am 'release %s'", r.version)
	var tags []string
	for _, m := range r.mods {
		tags = append(tags, m.tagPrefix()+r.version)
	}
	r.log("  git tag %s", strings.Join(tags, " && git tag "))
	r.log("  git push origin %s", strings.Join(tags, " "))
}

// env returns the environment for go commands that must see the repository
// only through the proxy.
func (r *release) env(tmp, proxyDir string) ([]string, error) {
	userCache, err := run(r.root, nil, "go", "env", "GOMODCACHE")
	if err != nil {
		return nil, err
	}
	userProxy, err := run(r.root, nil, "go", "env", "GOPROXY")
	if err != nil {
		return nil, err
	}
	return proxyEnv(proxyDir, filepath.Join(tmp, "modcache"), strings.TrimSpace(userCache), strings.TrimSpace(userProxy), r.mods[0].Path), nil
}

// buildFromProxy copies module m from the stage to its own directory, drops
// its replace directives on modules of the repository, and builds every
// package in it: the requirements on the other modules must then be met by
// the proxy, at the release's version.
func buildFromProxy(checkDir, stageDir string, m module, mods []module, files []string, env []string) error {
	dir := filepath.Join(checkDir, filepath.FromSlash(m.Dir))
	for _, f := range files {
		if err := copyFile(filepath.Join(stageDir, m.Dir, f), filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	gm, err := readGoMod(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	args := []string{"mod", "edit"}
	for _, rep := range gm.Replace {
		if _, ok := findModule(mods, rep.Old.Path); ok {
			args = append(args, "-dropreplace="+rep.Old.Path)
		}
	}
	if len(args) > 2 {
		if _, err := run(dir, nil, "go", args...); err != nil {
			return err
		}
	}
	if _, err := run(dir, env, "go", "build", "./..."); err != nil {
		return fmt.Errorf("%s does not build from the proxy: %v", m.Path, err)
	}
	return nil
}

// checkLicenses fails unless every module directory has a LICENSE file
// identical to the root one: the go command puts a module's own directory,
// and nothing above it, in the module's zip.
func checkLicenses(root string, mods []module) error {
	want, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		return fmt.Errorf("no LICENSE at the repository root: %v", err)
	}
	var errs []error
	for _, m := range mods[1:] {
		got, err := os.ReadFile(filepath.Join(root, m.Dir, "LICENSE"))
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("module %s has no LICENSE: copy the root one into %s/ (its zip holds only its own directory)", m.Path, m.Dir))
		case string(got) != string(want):
			errs = append(errs, fmt.Errorf("%s/LICENSE differs from the root LICENSE", m.Dir))
		}
	}
	return errors.Join(errs...)
}

// changelogFor returns the CHANGELOG text for a release of version: as it is
// when it already has a section for version; otherwise with its
// [Unreleased] section renamed to the version and date, under a new empty
// [Unreleased] one. It fails when there is neither, or when the [Unreleased]
// section is empty: every release says what changed.
func changelogFor(text, version string, now time.Time) (string, error) {
	if strings.Contains(text, "\n## ["+version+"]") {
		return text, nil
	}
	const head = "\n## [Unreleased]\n"
	i := strings.Index(text, head)
	if i < 0 {
		return "", fmt.Errorf("CHANGELOG.md has neither a [%s] nor an [Unreleased] section", version)
	}
	rest := text[i+len(head):]
	next := strings.Index(rest, "\n## [")
	if next < 0 {
		next = len(rest)
	}
	if strings.TrimSpace(rest[:next]) == "" {
		return "", fmt.Errorf("CHANGELOG.md: the [Unreleased] section is empty: say what %s changes", version)
	}
	return text[:i] + head + "\n## [" + version + "] - " + now.UTC().Format("2006-01-02") + "\n" + rest, nil
}

// removeAll removes dir, making read-only directories of a module cache
// writable first.
func removeAll(dir string) {
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.RemoveAll(dir)
}
