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
	base := r.base
	if base == "none" {
		r.log("api   skipped (-base none)")
		return nil
	}
	if base == "" {
		out, err := run(r.root, nil, "git", "tag", "--list", "v*", "--sort=-v:refname")
		if err != nil {
			return err
		}
		for _, t := range strings.Fields(out) {
			if semverRE.MatchString(t) && t != r.version {
				base = t
				break
			}
		}
		if base == "" {
			r.log("api   no earlier release tag (v*): nothing to compare the API with")
			return nil
		}
	}
	mayBreak, why := mayBreak(base, r.version)

	baseDir := filepath.Join(tmp, "base")
	if err := os.MkdirAll(baseDir, 0o755); err != nil {
		return err
	}
	tarFile := filepath.Join(tmp, "base.tar")
	if _, err := run(r.root, nil, "git", "archive", "--format=tar", "-o", tarFile, base); err != nil {
		return err
	}
	if _, err := run(baseDir, nil, "tar", "-xf", tarFile); err != nil {
		return err
	}
	bin := filepath.Join(tmp, "bin")
	if _, err := run(r.root, []string{"GOBIN=" + bin, "GOFLAGS=", "GOWORK=off"}, "go", "install", apidiffVersion); err != nil {
		return err
	}
	apidiff := filepath.Join(bin, "apidiff")
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	var broken []string
	for _, m := range r.mods {
		oldDir := filepath.Join(baseDir, filepath.FromSlash(m.Dir))
		if _, err := os.Stat(filepath.Join(oldDir, "go.mod")); err != nil {
			r.log("api   %s: new since %s", m.Path, base)
			continue
		}
		oldData := filepath.Join(tmp, "api-old-"+strings.ReplaceAll(m.Dir, "/", "_"))
		newData := filepath.Join(tmp, "api-new-"+strings.ReplaceAll(m.Dir, "/", "_"))
		if _, err := run(oldDir, env, apidiff, "-m", "-w", oldData, m.Path); err != nil {
			return err
		}
		if _, err := run(filepath.Join(stageDir, m.Dir), env, apidiff, "-m", "-w", newData, m.Path); err != nil {
			return err
		}
		out, err := run(tmp, env, apidiff, "-m", "-incompatible", oldData, newData)
		if err != nil {
			return err
		}
		if out = strings.TrimSpace(out); out != "" {
			r.log("api   %s: incompatible with %s:\n%s", m.Path, base, indent(out))
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
