package report_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/cmd/reuse/internal/report"
	reusedebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/race"
)

// noGC turns the garbage collector off for the test, so pools keep what is
// put in them.
func noGC(t *testing.T) {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDetectErrorPath(t *testing.T) {
	comp := gzipped(t, "hello, gzip")
	pool := &sync.Pool{New: func() any { return new(gzip.Reader) }}
	gunzip := func(in *bytes.Buffer) error {
		zr := pool.Get().(*gzip.Reader)
		defer pool.Put(zr)
		if err := zr.Reset(in); err != nil {
			return err
		}
		var out bytes.Buffer
		_, err := out.ReadFrom(zr)
		return err
	}
	t.Run("drained input", func(t *testing.T) {
		in := bytes.NewBuffer(comp) // one buffer for every op: the pitfall
		f := report.DetectErrorPath("drained", func() error { return gunzip(in) }, 50)
		if f == nil {
			t.Fatal("DetectErrorPath(drained input) = nil, want a P1 finding")
		}
		if f.Pitfall != "P1" || !strings.Contains(f.Evidence, "49 of 50") || !strings.Contains(f.Message, "error path") {
			t.Errorf("DetectErrorPath(drained input) = %+v, want P1 with 49 of 50 errors", *f)
		}
	})
	t.Run("fresh input", func(t *testing.T) {
		f := report.DetectErrorPath("fresh", func() error { return gunzip(bytes.NewBuffer(comp)) }, 50)
		if f != nil {
			t.Errorf("DetectErrorPath(fresh input) = %+v, want nil", *f)
		}
	})
}

type doc struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

func TestDetectStale(t *testing.T) {
	noGC(t)
	docs := [][]byte{
		[]byte(`{"id":1,"name":"Jack","items":["knife"]}`),
		[]byte(`{"id":2,"items":["cloak","hat"]}`),
	}
	fresh := func(b []byte) (string, error) {
		var v doc
		err := json.Unmarshal(b, &v)
		return fmt.Sprintf("%+v", v), err
	}
	t.Run("no reset", func(t *testing.T) {
		pool := &sync.Pool{New: func() any { return new(doc) }}
		pooled := func(b []byte) (string, error) {
			v := pool.Get().(*doc)
			defer pool.Put(v)
			err := json.Unmarshal(b, v)
			return fmt.Sprintf("%+v", *v), err
		}
		f := report.DetectStale("no reset", pooled, fresh, docs, 20)
		if f == nil {
			t.Fatal("DetectStale(pool without reset) = nil, want a P3 finding")
		}
		if f.Pitfall != "P3" || !strings.Contains(f.Message, "stale") || !strings.Contains(f.Evidence, "Name:Jack") {
			t.Errorf("DetectStale(pool without reset) = %+v, want P3 showing the stale Name:Jack", *f)
		}
	})
	t.Run("reset", func(t *testing.T) {
		pool := &reuse.Pool[*doc]{
			New:   func() *doc { return new(doc) },
			Reset: func(v *doc) { *v = doc{Items: v.Items[:0]} },
		}
		pooled := func(b []byte) (string, error) {
			v := pool.Get()
			defer pool.Put(v)
			err := json.Unmarshal(b, v)
			return fmt.Sprintf("%+v", *v), err
		}
		if f := report.DetectStale("reset", pooled, fresh, docs, 20); f != nil {
			t.Errorf("DetectStale(pool with Reset) = %+v, want nil", *f)
		}
	})
}

func TestDetectUseAfterPut(t *testing.T) {
	t.Run("defer Put, return the slice", func(t *testing.T) {
		pool := &sync.Pool{New: func() any { s := make([]string, 0, 16); return &s }}
		usual := func(s string) []string {
			ssp := pool.Get().(*[]string)
			defer pool.Put(ssp)
			ss := (*ssp)[:0]
			for i := 0; i < 16; i++ {
				ss = append(ss, s)
			}
			*ssp = ss
			return ss
		}
		f := report.DetectUseAfterPut("usual", usual, 4, 2*time.Second)
		if f == nil {
			t.Fatal("DetectUseAfterPut(defer Put; return *ss) = nil, want a P2 finding")
		}
		if f.Pitfall != "P2" || !strings.Contains(f.Evidence, "returned an element") {
			t.Errorf("DetectUseAfterPut(defer Put; return *ss) = %+v, want P2 with an example", *f)
		}
		if !race.Enabled && !strings.Contains(f.Evidence, "corrupted of") {
			t.Errorf("DetectUseAfterPut evidence %q: want the count of corrupted results", f.Evidence)
		}
	})
	t.Run("caller owns the result", func(t *testing.T) {
		fresh := func(s string) []string {
			ss := make([]string, 16)
			for i := range ss {
				ss[i] = s
			}
			return ss
		}
		if f := report.DetectUseAfterPut("fresh", fresh, 4, 100*time.Millisecond); f != nil {
			t.Errorf("DetectUseAfterPut(fresh slice) = %+v, want nil", *f)
		}
	})
}

func TestDetectBoxing(t *testing.T) {
	noGC(t)
	t.Run("value", func(t *testing.T) {
		p := &sync.Pool{New: func() any { return make([]byte, 64) }}
		f := report.DetectBoxing("value", func() {
			b := p.Get().([]byte)
			//lint:ignore SA6002 the pitfall under test
			p.Put(b)
		})
		if f == nil || f.Pitfall != "P4" {
			t.Fatalf("DetectBoxing(pool of []byte) = %v, want a P4 finding", f)
		}
	})
	t.Run("pointer", func(t *testing.T) {
		p := &sync.Pool{New: func() any { b := make([]byte, 64); return &b }}
		f := report.DetectBoxing("pointer", func() { p.Put(p.Get().(*[]byte)) })
		if f != nil {
			t.Errorf("DetectBoxing(pool of *[]byte) = %+v, want nil", *f)
		}
	})
	t.Run("reuse.Pool of a value", func(t *testing.T) {
		if reusedebug.Enabled {
			t.Skip("the reusedebug build records every value a pool hands out, which allocates")
		}
		p := &reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 64) }}
		if f := report.DetectBoxing("reuse", func() { p.Put(p.Get()) }); f != nil {
			t.Errorf("DetectBoxing(reuse.Pool[[]byte]) = %+v, want nil", *f)
		}
	})
}
