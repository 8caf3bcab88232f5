// Package promtest starts the real Prometheus and Pushgateway binaries for the
// examples' integration tests: on 127.0.0.1, on a free port, with temporary
// storage, stopped by PID when the test ends.
//
// When a binary is not installed the test is skipped with the command that
// installs it, except when the environment has CI=true: there the test fails,
// since CI installs both. Under js/wasm and wasip1, which cannot start
// processes, the test is always skipped.
package promtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Install is the command that installs both binaries on Debian and Ubuntu.
const Install = "apt-get install prometheus prometheus-pushgateway"

// readyTimeout bounds the wait for a started binary to answer /-/ready.
const readyTimeout = 60 * time.Second

// Binary returns the path of the named binary (looked up in PATH, then in
// /usr/bin and /usr/sbin), or skips t when it is absent, or fails t when it is
// absent and CI=true.
func Binary(t testing.TB, name string) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("promtest: %s/%s cannot start %s", runtime.GOOS, runtime.GOARCH, name)
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/bin", "/usr/sbin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	msg := fmt.Sprintf("promtest: %s is not installed; run: %s", name, Install)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: the integration tests must run)")
	}
	t.Skip(msg)
	return ""
}

// FreeAddr returns a 127.0.0.1:port address that was free a moment ago.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("promtest: finding a free port: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Pushgateway starts prometheus-pushgateway on a free 127.0.0.1 port with its
// persistence file in a temporary directory, waits until it is ready, and
// returns its base URL. The process is killed when t ends.
func Pushgateway(t testing.TB) string {
	t.Helper()
	bin := Binary(t, "prometheus-pushgateway")
	dir := t.TempDir()
	return start(t, bin, func(addr string) []string {
		return []string{
			"--web.listen-address=" + addr,
			"--persistence.file=" + filepath.Join(dir, "pushgateway.store"),
		}
	})
}

// Target is one scrape job of the Prometheus configuration.
type Target struct {
	Job         string // job_name
	Addr        string // host:port scraped at /metrics
	HonorLabels bool   // keep the scraped job and instance labels (for a Pushgateway)
}

// Prometheus starts prometheus on a free 127.0.0.1 port with a generated
// configuration that scrapes targets every second, its TSDB in a temporary
// directory, waits until it is ready, and returns its base URL. The process is
// killed when t ends.
func Prometheus(t testing.TB, targets ...Target) string {
	t.Helper()
	bin := Binary(t, "prometheus")
	dir := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n")
	for _, tg := range targets {
		fmt.Fprintf(&cfg, "  - job_name: %q\n    honor_labels: %t\n    static_configs:\n      - targets: [%q]\n",
			tg.Job, tg.HonorLabels, tg.Addr)
	}
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return start(t, bin, func(addr string) []string {
		return []string{
			"--config.file=" + config,
			"--storage.tsdb.path=" + filepath.Join(dir, "data"),
			"--web.listen-address=" + addr,
		}
	})
}

// start runs bin with the arguments args gives for a free address, retrying
// on another port if the binary exits early (the port may have been taken
// between FreeAddr and the binary's listen), and waits until /-/ready answers.
func start(t testing.TB, bin string, args func(addr string) []string) string {
	t.Helper()
	var lastErr error
	for range 3 {
		addr := FreeAddr(t)
		url := "http://" + addr
		p := &process{name: filepath.Base(bin)}
		p.cmd = exec.Command(bin, args(addr)...)
		p.cmd.Stdout = &p.out
		p.cmd.Stderr = &p.out
		if err := p.cmd.Start(); err != nil {
			t.Fatalf("promtest: starting %s: %v", bin, err)
		}
		p.done = make(chan struct{})
		go func() {
			p.err = p.cmd.Wait()
			close(p.done)
		}()
		t.Cleanup(func() { p.stop(t) })
		if err := p.waitReady(url); err != nil {
			lastErr = err
			select {
			case <-p.done: // exited: try another port
				continue
			default:
				t.Fatalf("promtest: %v\n%s output:\n%s", err, p.name, p.output())
			}
		}
		t.Logf("promtest: %s (pid %d) ready at %s", p.name, p.cmd.Process.Pid, url)
		return url
	}
	t.Fatalf("promtest: %s did not start: %v", bin, lastErr)
	return ""
}

// process is a started binary.
type process struct {
	name string
	cmd  *exec.Cmd
	out  syncBuffer
	done chan struct{} // closed when Wait returned
	err  error         // from Wait, set before done is closed
}

func (p *process) output() string { return p.out.String() }

// waitReady polls url/-/ready until it answers 200, the process exits, or
// readyTimeout passes.
func (p *process) waitReady(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/-/ready", nil)
		if resp, err := client.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it was ready (%v):\n%s", p.name, p.err, p.output())
		case <-ctx.Done():
			return fmt.Errorf("%s not ready at %s after %v", p.name, url, readyTimeout)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop kills the process by its PID and waits for it to exit; if the test
// failed it logs the process's output.
func (p *process) stop(t testing.TB) {
	select {
	case <-p.done:
	default:
		if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Errorf("promtest: killing %s (pid %d): %v", p.name, p.cmd.Process.Pid, err)
		}
		<-p.done
	}
	if t.Failed() {
		t.Logf("promtest: %s output:\n%s", p.name, p.output())
	}
}

// syncBuffer is a bytes.Buffer safe for the process's writes and the test's
// reads at once.
type syncBuffer struct {
	mu sync.Mutex // protects b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
