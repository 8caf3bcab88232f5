package khttp_test

import (
	"testing"

	"github.com/reuse-go/reuse/internal/misusetest"
)

// TestMisuseNamesMethod checks that khttp declares no exported type that
// the check does not list: khttp has none, so this fails once one is added
// without its line here.
func TestMisuseNamesMethod(t *testing.T) {
	misusetest.Check(t, nil, nil)
}
