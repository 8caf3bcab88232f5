// Command poolvet reports misuse of pooled values: use after Put, double
// Put, pooled memory that escapes, non-pointer values in a sync.Pool and
// buffers that are never reset.
//
// Run it on its own:
//
//	poolvet ./...
//
// or through go vet, which also checks test files and uses the build cache:
//
//	go vet -vettool=$(which poolvet) ./...
package main

import (
	"os"
	"strings"

	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis/singlechecker"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() {
	if vetInvoked(os.Args[1:]) {
		unitchecker.Main(poolvet.Analyzer)
	}
	singlechecker.Main(poolvet.Analyzer)
}

// vetInvoked reports whether go vet runs us: it asks for the version and
// flags (-V=full, -flags) and then passes one JSON config file per package.
func vetInvoked(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "-flags" || strings.HasSuffix(a, ".cfg") {
			return true
		}
	}
	return false
}
