// Command poolvet reports misuse of pooled values: use after Put, double
// Put, pooled memory that escapes, non-pointer values in a sync.Pool,
// buffers that are never reset, and values not given back on some path
// (-leak=false turns that check off).
//
// Run it on its own:
//
//	poolvet ./...
//
// or through go vet, which also checks test files and uses the build cache:
//
//	go vet -vettool=$(which poolvet) ./...
//
// Its suggested fixes are applied by go fix (Go 1.26 or newer), or by the
// command itself:
//
//	go fix -fixtool=$(which poolvet) ./...
//	poolvet -fix ./...
package main

import (
	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis/singlechecker"
)

// main serves both uses: singlechecker answers go vet's -V=full and -flags
// queries and hands a single .cfg argument (go vet's per-package config) to
// unitchecker, and loads packages itself otherwise.
func main() {
	singlechecker.Main(poolvet.Analyzer)
}
