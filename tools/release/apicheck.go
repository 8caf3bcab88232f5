package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// apiCheck compares the API of every module in the stage with the same
// module at the base release, with apidiff. An incompatible change fails the
// release unless the version may break compatibility: a new minor version
// while the major version is 0 (semver's "anything may change"), where it is
// reported and allowed.
func (r *release) apiCheck(tmp, stageDir string) error {
	base, err := r.baseRef()
	if base == "" || err != nil {
		return err
	}
	mayBreak, why := mayBreak(base, r.version)

	baseDir, err := r.checkOut(tmp, base)
	if err != nil {
		return err
	}
	apidiff, err := r.installAPIDiff(tmp)
	if err != nil {
		return err
	}
	var broken []string
	for _, m := range r.mods {
		oldDir := filepath.Join(baseDir, filepath.FromSlash(m.Dir))
		if _, err := os.Stat(filepath.Join(oldDir, "go.mod")); err != nil {
			r.log("api   %s: new since %s", m.Path, base)
			continue
		}
		diff, err := incompatible(apidiff, tmp, m, oldDir, filepath.Join(stageDir, m.Dir))
		if err != nil {
			return err
		}
		if diff != "" {
			r.log("api   %s: incompatible with %s:\n%s", m.Path, base, indent(diff))
			broken = append(broken, m.Path)
		} else {
			r.log("api   %s: compatible with %s", m.Path, base)
		}
	}
	if len(broken) > 0 && !mayBreak {
		return fmt.Errorf("%s breaks the API of %s since %s (%s)", r.version, strings.Join(broken, ", "), base, why)
	}
	if len(broken) > 0 {
		r.log("api   incompatible changes allowed: %s", why)
	}
	return nil
}

// baseRef returns the git ref to compare the API with: r.base, or the newest
// release tag other than the version being released. It returns "" (and
// says why) when there is nothing to compare with.
func (r *release) baseRef() (string, error) {
	switch r.base {
	case "none":
		r.log("api   skipped (-base none)")
		return "", nil
	case "":
	default:
		return r.base, nil
	}
	out, err := run(r.root, nil, "git", "tag", "--list", "v*", "--sort=-v:refname")
	if err != nil {
		return "", err
	}
	for _, t := range strings.Fields(out) {
		if semverRE.MatchString(t) && t != r.version {
			return t, nil
		}
	}
	r.log("api   no earlier release tag (v*): nothing to compare the API with")
	return "", nil
}

// checkOut writes the repository's tree at ref to a directory under tmp and
// returns it.
func (r *release) checkOut(tmp, ref string) (string, error) {
	dir := filepath.Join(tmp, "base")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tarFile := filepath.Join(tmp, "base.tar")
	if _, err := run(r.root, nil, "git", "archive", "--format=tar", "-o", tarFile, ref); err != nil {
		return "", err
	}
	if _, err := run(dir, nil, "tar", "-xf", tarFile); err != nil {
		return "", err
	}
	return dir, nil
}

// installAPIDiff installs the pinned apidiff under tmp and returns the path
// of the binary.
func (r *release) installAPIDiff(tmp string) (string, error) {
	bin := filepath.Join(tmp, "bin")
	if _, err := run(r.root, []string{"GOBIN=" + bin, "GOFLAGS=", "GOWORK=off"}, "go", "install", apidiffVersion); err != nil {
		return "", err
	}
	return filepath.Join(bin, "apidiff"), nil
}

// incompatible returns apidiff's list of the incompatible changes from
// module m in oldDir to m in newDir, "" when there are none; the API data go
// to files under tmp.
func incompatible(apidiff, tmp string, m module, oldDir, newDir string) (string, error) {
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	oldData := filepath.Join(tmp, "api-old-"+strings.ReplaceAll(m.Dir, "/", "_"))
	newData := filepath.Join(tmp, "api-new-"+strings.ReplaceAll(m.Dir, "/", "_"))
	if _, err := run(oldDir, env, apidiff, "-m", "-w", oldData, m.Path); err != nil {
		return "", err
	}
	if _, err := run(newDir, env, apidiff, "-m", "-w", newData, m.Path); err != nil {
		return "", err
	}
	out, err := run(tmp, env, apidiff, "-m", "-incompatible", oldData, newData)
	return strings.TrimSpace(out), err
}

// mayBreak reports whether version may make incompatible changes after base,
// and why.
func mayBreak(base, version string) (bool, string) {
	b, v := semverRE.FindStringSubmatch(base), semverRE.FindStringSubmatch(version)
	if b == nil {
		return false, "the base " + base + " is not a release tag, so no version rule applies"
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case num(v[1]) > num(b[1]):
		return true, "a new major version"
	case v[1] == "0" && num(v[2]) > num(b[2]):
		return true, "a new minor version of v0"
	case v[1] == "0":
		return false, "a patch release of v0 must stay compatible"
	default:
		return false, "a minor or patch release of v1 must stay compatible"
	}
}

func indent(s string) string {
	return "        " + strings.ReplaceAll(s, "\n", "\n        ")
}
