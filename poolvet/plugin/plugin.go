// Package plugin registers poolvet as a golangci-lint module plugin.
//
// Build a custom golangci-lint that includes it with a .custom-gcl.yml:
//
//	version: v2.5.0
//	plugins:
//	  - module: github.com/reuse-go/reuse/poolvet
//	    import: github.com/reuse-go/reuse/poolvet/plugin
//	    version: latest
//
// run golangci-lint custom (scripts/golangci-poolvet in the repository does
// it with a local path to poolvet, and shows how to when only the Go module
// proxy is reachable), and enable it in .golangci.yml:
//
//	linters:
//	  enable:
//	    - poolvet
//	  settings:
//	    custom:
//	      poolvet:
//	        type: module
//	        description: reports misuse of pooled values
package plugin

import (
	"github.com/golangci/plugin-module-register/register"
	"github.com/reuse-go/reuse/poolvet"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("poolvet", New)
}

// New returns the plugin. poolvet has no settings.
func New(any) (register.LinterPlugin, error) {
	return linter{}, nil
}

type linter struct{}

// BuildAnalyzers returns poolvet's analyzer.
func (linter) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{poolvet.Analyzer}, nil
}

// GetLoadMode asks for type information, which SSA needs.
func (linter) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
