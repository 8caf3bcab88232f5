package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// stage copies every module's files into dir, keeping the repository's
// layout (so that the development replace directives still resolve there),
// and sets each requirement on a module of the repository to version,
// adding the development replace directive where one is missing. It returns
// the files of each module, by module directory.
func stage(root, dir string, mods []module, version string) (map[string][]string, error) {
	files := map[string][]string{}
	for _, m := range mods {
		fs, err := moduleFiles(root, m, mods)
		if err != nil {
			return nil, err
		}
		files[m.Dir] = fs
		for _, f := range fs {
			if err := copyFile(filepath.Join(root, m.Dir, f), filepath.Join(dir, m.Dir, f)); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range mods {
		if err := setRequires(filepath.Join(dir, m.Dir), m, mods, version); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// setRequires rewrites the go.mod in modDir so that every requirement on a
// module of the repository is at version and has a replace directive to its
// directory.
func setRequires(modDir string, m module, mods []module, version string) error {
	gm, err := readGoMod(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return err
	}
	replaced := map[string]bool{}
	for _, r := range gm.Replace {
		replaced[r.Old.Path] = true
	}
	var args []string
	for _, r := range gm.Require {
		o, ok := findModule(mods, r.Path)
		if !ok {
			continue
		}
		if r.Version != version {
			args = append(args, "-require="+r.Path+"@"+version)
		}
		if !replaced[r.Path] {
			rel, err := filepath.Rel(filepath.FromSlash(m.Dir), filepath.FromSlash(o.Dir))
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if !strings.HasPrefix(rel, ".") {
				rel = "./" + rel
			}
			args = append(args, "-replace="+r.Path+"="+rel)
		}
	}
	if len(args) == 0 {
		return nil
	}
	_, err = run(modDir, nil, "go", append([]string{"mod", "edit"}, args...)...)
	return err
}

func findModule(mods []module, p string) (module, bool) {
	for _, m := range mods {
		if m.Path == p {
			return m, true
		}
	}
	return module{}, false
}

// writeProxy lays out the staged modules at version in proxyDir, in the
// layout of a GOPROXY (https://go.dev/ref/mod#goproxy-protocol): for each
// module, @v/list, @v/VERSION.info, @v/VERSION.mod and @v/VERSION.zip, the
// zip holding the module's files under "path@version/". It adds to what is
// there, so one proxy can serve several versions.
func writeProxy(proxyDir, stageDir string, mods []module, files map[string][]string, version string, when time.Time) error {
	for _, m := range mods {
		esc, err := escapePath(m.Path)
		if err != nil {
			return err
		}
		vdir := filepath.Join(proxyDir, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(vdir, 0o755); err != nil {
			return err
		}
		if err := addToList(filepath.Join(vdir, "list"), version); err != nil {
			return err
		}
		info, _ := json.Marshal(struct {
			Version string
			Time    string
		}{version, when.UTC().Format(time.RFC3339)})
		if err := os.WriteFile(filepath.Join(vdir, version+".info"), info, 0o644); err != nil {
			return err
		}
		modDir := filepath.Join(stageDir, m.Dir)
		gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(vdir, version+".mod"), gomod, 0o644); err != nil {
			return err
		}
		if err := writeZip(filepath.Join(vdir, version+".zip"), modDir, m.Path+"@"+version, files[m.Dir]); err != nil {
			return fmt.Errorf("%s: %v", m.Path, err)
		}
	}
	return nil
}

func addToList(file, version string) error {
	old, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, v := range strings.Fields(string(old)) {
		if v == version {
			return nil
		}
	}
	return os.WriteFile(file, append(old, version+"\n"...), 0o644)
}

// writeZip writes a module zip: every file under prefix/, as the go command
// expects (https://go.dev/ref/mod#zip-files).
func writeZip(file, dir, prefix string, files []string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, name := range files {
		w, err := zw.Create(prefix + "/" + name)
		if err != nil {
			f.Close()
			return err
		}
		src, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			f.Close()
			return err
		}
		_, err = io.Copy(w, src)
		src.Close()
		if err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// escapePath applies the module proxy's case encoding: each upper-case
// letter becomes '!' and its lower-case form.
func escapePath(p string) (string, error) {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '!' || r >= 0x80:
			return "", fmt.Errorf("module path %q: character %q not allowed", p, r)
		case 'A' <= r && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return path.Clean(b.String()), nil
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// proxyEnv is the environment under which the go command sees the modules
// of the repository only as a user outside it would: through the proxy at
// proxyDir, with a module cache of its own in modCache, no workspace, and no
// checksum database lookups for this repository's modules (which it has not
// seen: rootPath covers every module of the repository). Other modules come from the user's module cache first, then from
// the user's GOPROXY.
func proxyEnv(proxyDir, modCache, userModCache, userProxy, rootPath string) []string {
	proxies := []string{"file://" + filepath.ToSlash(proxyDir)}
	if userModCache != "" {
		proxies = append(proxies, "file://"+filepath.ToSlash(filepath.Join(userModCache, "cache", "download")))
	}
	if userProxy != "" && userProxy != "off" {
		proxies = append(proxies, userProxy)
	}
	return []string{
		"GOPROXY=" + strings.Join(proxies, ","),
		"GOMODCACHE=" + modCache,
		"GOFLAGS=-mod=mod -modcacherw -buildvcs=false",
		"GONOSUMDB=" + rootPath,
		"GOPRIVATE=",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	}
}
