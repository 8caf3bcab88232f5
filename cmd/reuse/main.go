// Command reuse runs the report: every classic sync.Pool workload (W1–W11 in
// docs/WORKLOADS.md) measured here in up to four variants, fresh
// allocation, sync.Pool as usually written, sync.Pool written correctly and
// reuse, with a verdict from each measured interval and the pitfalls the
// usual code falls into detected in the same run.
//
// Usage:
//
//	go run ./cmd/reuse [bench] [-html FILE] [-json FILE] [-filter REGEXP] [-full] [-time D]
//	go run ./cmd/reuse compare [-agree] OLD.json NEW.json
//	go run ./cmd/reuse advise [-json] PROFILE
//
// The terminal table goes to standard output. While it runs, progress goes
// to standard error when that is a terminal.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"time"

	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
)

func main() {
	if report.IsPass() {
		os.Exit(report.ServePass(os.Stdout))
	}
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errReported) && !errors.Is(err, errDisagree) {
		fmt.Fprintln(os.Stderr, "reuse:", err)
	}
	os.Exit(exitCode(err))
}

// errReported is returned when a subcommand has already said what went
// wrong, so main adds nothing to it.
var errReported = errors.New("reported")

// exitCode is the process's exit status after run returned err: 0 on
// success and when help was asked for (-h), 2 otherwise.
func exitCode(err error) int {
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errDisagree):
		return 1
	}
	return 2
}

// run is main without the process: it parses args, runs the report and
// writes it.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "compare" {
		return compare(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "advise" {
		return advise(args[1:], stdout, stderr)
	}
	cfg, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		cfg.opt.Progress = progress(f, report.Select(cfg.opt.Filter))
	}
	// Each pass in a process of its own: this program, which serves it
	// (main above; TestMain in the tests).
	if exe, err := os.Executable(); err == nil {
		cfg.opt.Exec = exe
	}
	r := report.Run(cfg.opt)
	if cfg.sweep {
		r.Sweep = sweep(cfg.opt, stderr)
	}
	if cfg.opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return write(r, stdout, cfg)
}

// config is what the command line asks for.
type config struct {
	opt      report.Options
	htmlFile string
	jsonFile string
	sweep    bool
}

// sweepDefault selects the workloads of a GC sweep when -filter does not:
// one size curve, one codec and the mixed-size buffers.
var sweepDefault = regexp.MustCompile(`W1|W9|W11`)

// sweep runs the GC sweep over the workloads opt selects (sweepDefault if
// none), with progress on stderr when the main run had it.
func sweep(opt report.Options, stderr io.Writer) []report.SweepPoint {
	if opt.Filter == nil {
		opt.Filter = sweepDefault
	}
	var progress func(i, n int, g report.GC)
	if opt.Progress != nil {
		progress = func(i, n int, g report.GC) {
			fmt.Fprintf(stderr, "\r\033[K[gc sweep %d/%d] GOGC=%d, live heap %sB", i+1, n, g.GOGC, report.Bytes(float64(g.Ballast)))
		}
	}
	return report.Sweep(opt, progress)
}

// parse reads the command line into a config; usage and flag errors go to
// stderr.
func parse(args []string, stderr io.Writer) (config, error) {
	if len(args) > 0 && args[0] == "bench" {
		args = args[1:]
	}
	var cfg config
	fs := flag.NewFlagSet("reuse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.htmlFile, "html", "", "also write the report as a self-contained HTML page to `FILE`")
	fs.StringVar(&cfg.jsonFile, "json", "", "also write the report as JSON to `FILE`")
	filter := fs.String("filter", "", "run only the workloads whose id is matched whole, or whose name is matched, by `REGEXP` (W1 is W1 alone; W9|W10, gzip)")
	full := fs.Bool("full", false, "longer, steadier runs (several minutes), without the default run's 22 s budget")
	round := fs.Duration("time", 0, "time per variant in each measuring round (default 15ms, 60ms with -full)")
	fs.BoolVar(&cfg.sweep, "gc-sweep", false, "also measure W1, W9 and W11 (or the -filter selection) under GOGC 25, 100 and 400 and live heaps of 0 to 128 MiB (adds a minute or more: its rounds have a 60 s budget)")
	rounds := fs.Int("rounds", 0, "measuring rounds per variant, each in its own pass over the workloads on a fresh instance (default 9, 15 with -full)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: reuse [bench] [flags]\n       reuse compare [-agree] OLD.json NEW.json\n       reuse advise [-json] PROFILE\n\nMeasures the classic sync.Pool workloads W1–W11 here: baseline, sync.Pool as usually\nwritten, sync.Pool written correctly and reuse, gives each case a verdict from its\nmeasured interval, and reports the pitfalls the usual code falls into.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cfg.opt = report.DefaultOptions()
	if *full {
		cfg.opt = report.FullOptions()
	}
	// Explicit round settings are taken as given, without the default
	// run's time budget.
	if *round > 0 {
		cfg.opt.Round, cfg.opt.Budget = *round, 0
	}
	if *rounds > 0 {
		cfg.opt.Rounds, cfg.opt.Budget = *rounds, 0
	}
	if *filter != "" {
		re, err := regexp.Compile(*filter)
		if err != nil {
			return cfg, fmt.Errorf("-filter: %w", err)
		}
		cfg.opt.Filter = re
		if len(report.Select(re)) == 0 {
			return cfg, fmt.Errorf("-filter %q matches no workload", *filter)
		}
	}
	return cfg, nil
}

// write writes the report as a table to stdout and, if asked, as JSON and
// HTML files.
func write(r report.Report, stdout io.Writer, cfg config) error {
	if err := report.WriteText(stdout, r); err != nil {
		return err
	}
	if cfg.jsonFile != "" {
		if err := writeFile(cfg.jsonFile, func(w io.Writer) error { return report.WriteJSON(w, r) }); err != nil {
			return err
		}
	}
	if cfg.htmlFile != "" {
		return writeFile(cfg.htmlFile, func(w io.Writer) error { return report.WriteHTML(w, r) })
	}
	return nil
}

// compare is "reuse compare OLD.json NEW.json": a benchstat-style
// comparison of two runs written with -json.
func compare(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reuse compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agree := fs.Bool("agree", false, "check instead that two runs of the same checkout on the same machine agree: no verdict faster in one and slower in the other, at most 1 in 40 with disjoint intervals, the same largest gain and loss (exit status 1 when they do not)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: reuse compare [-agree] OLD.json NEW.json\n\nCompares two runs written with -json (two Go versions, two machines, before and after a\nchange): time per op of every variant both measured, the change and its p-value, and\nreuse's headline speedup in each.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return fmt.Errorf("compare: want two JSON files, got %d arguments", fs.NArg())
	}
	var runs [2]report.Report
	for i, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		runs[i], err = report.ReadJSON(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("compare: %s: %w", name, err)
		}
	}
	if *agree {
		ag := report.Agree(runs[0], runs[1])
		if err := report.WriteAgreement(stdout, ag); err != nil {
			return err
		}
		if !ag.OK() {
			return errDisagree
		}
		return nil
	}
	return report.Compare(stdout, runs[0], runs[1])
}

// errDisagree is compare -agree's answer when two runs disagree: the
// command has said where, and exits with status 1.
var errDisagree = errors.New("the runs disagree")

// adviseModule is where the advise command lives, relative to the
// repository's root: a module of its own, because it reads profiles with
// github.com/google/pprof and the reuse module has no third-party
// dependencies.
const adviseModule = "cmd/reuse/advise"

// advise is "reuse advise PROFILE": it builds the advise command in the
// clone this command runs in, so that the reuse module itself never
// requires pprof, and runs it here. Not with go run, which adds "exit
// status 2" after a failed program's own message: the go run of this
// command adds one already.
func advise(args []string, stdout, stderr io.Writer) error {
	dir, err := adviseDir()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "reuse-advise-")
	if err != nil {
		return fmt.Errorf("advise: %w", err)
	}
	defer os.RemoveAll(tmp)
	exe := filepath.Join(tmp, "advise")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir, build.Stdout, build.Stderr = dir, stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("advise: building %s: %w", dir, err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return errReported
		}
		return fmt.Errorf("advise: %w", err)
	}
	return nil
}

// adviseDir finds the advise module from the working directory up, or else
// from this program's own source up: a go run ../reuse/cmd/reuse from the
// user's module is a build of a clone too.
func adviseDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	_, src, _, _ := runtime.Caller(0)
	return findAdvise(wd, src)
}

// findAdvise is adviseDir from working directory wd, for a program built
// from the source file src (not absolute under -trimpath, or in the module
// cache, which holds no nested module).
func findAdvise(wd, src string) (string, error) {
	if d, ok := adviseAbove(wd); ok {
		return d, nil
	}
	if filepath.IsAbs(src) {
		if d, ok := adviseAbove(filepath.Dir(src)); ok {
			return d, nil
		}
	}
	return "", fmt.Errorf("advise: no clone of the reuse repository here or above; reuse is not yet published, so run it from a clone: git clone https://github.com/reuse-go/reuse && cd reuse && go run ./cmd/reuse advise -module YOUR/MODULE PROFILE (without -module, advise infers your code from the profile, never reuse's own; once a release is tagged: go run github.com/reuse-go/reuse/%s@VERSION PROFILE)", adviseModule)
}

// adviseAbove looks for the advise module in a clone at dir or above.
func adviseAbove(dir string) (string, bool) {
	for {
		d := filepath.Join(dir, filepath.FromSlash(adviseModule))
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// isTerminal reports whether f is a character device, such as a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress returns a Progress callback that rewrites one status line on w:
// the pass over the workloads, the workload, and the estimated time left,
// from the variants measured so far.
func progress(w io.Writer, defs []report.Def) func(report.Def, int, int, time.Duration) {
	weights := make([]int, len(defs))
	perPass := 0
	for i, d := range defs {
		for _, c := range d.Cases {
			weights[i] += len(c.Variants)
		}
		perPass += weights[i]
	}
	done := 0
	return func(d report.Def, i, n int, elapsed time.Duration) {
		passes := max(1, n/max(1, len(defs)))
		left := "estimating…"
		if done > 0 {
			rest := time.Duration(float64(elapsed) * float64(perPass*passes-done) / float64(done))
			left = fmt.Sprintf("~%s left", rest.Round(time.Second))
		}
		fmt.Fprintf(w, "\r\033[K[%d/%d] pass %d of %d, %s %s: %s", i+1, n, i/max(1, len(defs))+1, passes, d.ID, d.Name, left)
		if len(weights) > 0 {
			done += weights[i%len(weights)]
		}
	}
}
