// Command advise reads a Go heap profile and says which allocation sites
// to pool with reuse, with which type and bound, and what that would save,
// and which heavy sites are not worth pooling.
//
// Usage:
//
//	go run ./cmd/reuse advise [-json] [-top N] [-break-even BYTES] PROFILE
//
// Advice points at the user's own code: a site is the first frame, from
// the allocation up, of package main or of the modules -module lists, or
// without it of the module of go.mod in the working directory, and an
// allocation inside a library, reuse's own packages included, is named at
// the call that leads there. reuse's own modules are never the user's
// unless -module names them: run in reuse's clone, advise infers the
// user's code from the profile instead (Options.Infer). The output's first
// lines say which code it took for the user's, and why. What reuse already
// pools is listed under "do not pool".
//
// PROFILE is a heap profile file (go test -memprofile, pprof.WriteHeapProfile,
// or curl http://host/debug/pprof/heap) or an http:// or https:// URL of a
// /debug/pprof/heap or /debug/pprof/allocs endpoint. The advice is ranked by
// the bytes each site allocated over the profile's life (alloc_space): what
// a pool that hands the memory back would save.
//
// It is its own module because it reads profiles with
// github.com/google/pprof/profile, and the reuse module has no third-party
// dependencies. Command reuse runs it for "reuse advise".
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	default:
		fmt.Fprintln(os.Stderr, "reuse advise:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reuse advise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "write the advice as JSON, for tools")
	top := fs.Int("top", 10, "show at most `N` sites of each kind")
	opt := DefaultOptions()
	fs.Float64Var(&opt.BreakEven, "break-even", opt.BreakEven, "object size in `BYTES` at or below which pooling does not pay (measure yours: go run ./cmd/reuse -filter B1)")
	modules := fs.String("module", "", "comma-separated import `paths` of your own code, where advice points (default: the module of go.mod in this directory or above, unless it is reuse's own, then inferred from the profile; package main always)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: reuse advise [flags] PROFILE\n\nReads a Go heap profile (a file, or an http://…/debug/pprof/heap URL) and names the\nallocation sites worth pooling, the reuse type to use with its bound and the expected\nsaving, and the heavy sites that are not worth pooling.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("want one profile, got %d arguments", fs.NArg())
	}
	p, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	yours := chooseCode(&opt, *modules, mainModule())
	a, err := Analyze(p, opt)
	if err != nil {
		return err
	}
	a.Yours = yours
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	}
	return WriteText(stdout, a, *top)
}

// chooseCode sets opt.Modules or opt.Infer from the -module flag and the
// working directory's module, and says what it chose and why. reuse's own
// modules are the user's only where -module names them: from reuse's
// clone, where docs/REPORT.md runs advise, the working directory's module
// is reuse's, and the user's code is inferred from the profile instead.
func chooseCode(opt *Options, flagModules, cwdModule string) string {
	switch {
	case flagModules != "":
		opt.Modules = strings.Split(flagModules, ",")
		return fmt.Sprintf("package main and %s (-module)", strings.Join(opt.Modules, ", "))
	case cwdModule != "" && !IsReuseModule(cwdModule):
		opt.Modules = []string{cwdModule}
		return fmt.Sprintf("package main and module %s (go.mod of the working directory; -module names others)", cwdModule)
	}
	opt.Infer = true
	why := "no go.mod in the working directory"
	if cwdModule != "" {
		why = "the working directory's module, " + cwdModule + ", is reuse's own"
	}
	return "inferred from the profile (" + why + "; -module names yours): package main and the packages outside the standard library and reuse whose files are not in a required module's version (module cache, vendor)"
}

// mainModule returns the module path of the go.mod in the working
// directory or the nearest above it, "" when there is none.
func mainModule() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			return modulePath(b)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// modulePath returns the path of a go.mod's module directive.
func modulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// load reads a profile from a file or an http(s) URL.
func load(src string) (*profile.Profile, error) {
	var r io.Reader
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		c := &http.Client{Timeout: 60 * time.Second}
		resp, err := c.Get(src)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: %s", src, resp.Status)
		}
		r = resp.Body
	} else {
		f, err := os.Open(src)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	p, err := profile.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	return p, nil
}
