package jsonpool_test

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/reuse-go/reuse/jsonpool"
)

// TestErrorPrefixOnce checks that an error from Decode names the package
// once: a wrapped sentinel that carries the prefix as well doubles it.
func TestErrorPrefixOnce(t *testing.T) {
	var v map[string]any
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"too large", jsonpool.Decode(strings.NewReader(`{"a":1}`), &v, 3)},
		{"syntax", jsonpool.Decode(strings.NewReader(`{`), &v, 100)},
		{"reading", jsonpool.Decode(iotest.ErrReader(errors.New("boom")), &v, 100)},
	} {
		if tt.err == nil {
			t.Errorf("%s: Decode returned nil, want an error", tt.name)
			continue
		}
		if n := strings.Count(tt.err.Error(), "jsonpool:"); n != 1 {
			t.Errorf("%s: error %q names the package %d times, want once", tt.name, tt.err, n)
		}
	}
}
