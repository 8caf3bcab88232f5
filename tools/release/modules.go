package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// A module is one go.mod of the repository.
type module struct {
	Dir  string // slash-separated, relative to the repository root; "." for the root
	Path string // module path from go.mod
}

// tagPrefix is the prefix of the module's tags: "" for the root module,
// "kgzip/" for the module in kgzip/.
func (m module) tagPrefix() string {
	if m.Dir == "." {
		return ""
	}
	return m.Dir + "/"
}

// findModules returns the modules of the repository at root: every go.mod
// that git tracks or would track (untracked files that are not ignored),
// outside testdata, sorted with the root module first.
func findModules(root string) ([]module, error) {
	out, err := run(root, nil, "git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "*go.mod")
	if err != nil {
		return nil, err
	}
	var mods []module
	for _, f := range strings.Fields(out) {
		if path.Base(f) != "go.mod" || isTestdata(f) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			continue // deleted in the working tree
		}
		dir := path.Dir(f)
		p, err := modulePath(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		mods = append(mods, module{Dir: dir, Path: p})
	}
	sort.Slice(mods, func(i, j int) bool {
		if (mods[i].Dir == ".") != (mods[j].Dir == ".") {
			return mods[i].Dir == "."
		}
		return mods[i].Dir < mods[j].Dir
	})
	if len(mods) == 0 || mods[0].Dir != "." {
		return nil, fmt.Errorf("no go.mod at the repository root %s", root)
	}
	return mods, nil
}

func isTestdata(p string) bool {
	for _, e := range strings.Split(p, "/") {
		if e == "testdata" {
			return true
		}
	}
	return false
}

// goMod is the part of `go mod edit -json` that the release needs.
type goMod struct {
	Module  struct{ Path string }
	Go      string
	Require []struct {
		Path     string
		Version  string
		Indirect bool
	}
	Replace []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

func readGoMod(file string) (*goMod, error) {
	out, err := run(filepath.Dir(file), nil, "go", "mod", "edit", "-json", filepath.Base(file))
	if err != nil {
		return nil, err
	}
	var m goMod
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &m, nil
}

func modulePath(file string) (string, error) {
	m, err := readGoMod(file)
	if err != nil {
		return "", err
	}
	if m.Module.Path == "" {
		return "", fmt.Errorf("%s: no module line", file)
	}
	return m.Module.Path, nil
}

// moduleFiles returns the files of module m that belong in its zip: what git
// tracks or would track under m.Dir, less the trees of nested modules, less
// anything that is not a regular file. Paths are slash-separated, relative to
// the module directory.
func moduleFiles(root string, m module, all []module) ([]string, error) {
	out, err := run(filepath.Join(root, m.Dir), nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name", ".")
	if err != nil {
		return nil, err
	}
	nested := nestedDirs(m, all)
	var files []string
	seen := map[string]bool{}
	for _, f := range strings.Split(out, "\x00") {
		if f == "" || seen[f] || underAny(f, nested) {
			continue
		}
		seen[f] = true
		ok, err := isRegular(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		rel := f
		if m.Dir != "." {
			rel = strings.TrimPrefix(f, m.Dir+"/")
		}
		files = append(files, rel)
	}
	sort.Strings(files)
	return files, nil
}

// nestedDirs returns the directories, each with a trailing slash, of the
// modules of all nested inside module m.
func nestedDirs(m module, all []module) []string {
	var nested []string
	for _, o := range all {
		if o.Dir != m.Dir && (m.Dir == "." || strings.HasPrefix(o.Dir, m.Dir+"/")) {
			nested = append(nested, o.Dir+"/")
		}
	}
	return nested
}

// underAny reports whether path f starts with one of dirs.
func underAny(f string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(f, d) {
			return true
		}
	}
	return false
}

// isRegular reports whether the file at path exists in the working tree
// and is a regular file: a file deleted there is left out, and so is a
// symbolic link, as the go command leaves links out of module zips.
func isRegular(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.Mode().IsRegular(), nil
}

// run runs name with args in dir, with env added to the environment, and
// returns its standard output; the error carries its standard error.
func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
