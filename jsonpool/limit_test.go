package jsonpool_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/reuse-go/reuse/jsonpool"
)

// TestDecodeLimitExtremes checks Decode and Values.Decode at the extreme
// limits: each either decodes, returns ErrTooLarge, or panics with the
// documented message for a limit below 1. limit+1 used to overflow at
// math.MaxInt and panic with a slice bounds error.
func TestDecodeLimitExtremes(t *testing.T) {
	const doc = `{"a":1}`
	tests := []struct {
		limit int64
		err   error  // want errors.Is(err, err); nil for success
		panic string // want a panic containing this
	}{
		{math.MaxInt, nil, ""},
		{math.MaxInt - 1, nil, ""},
		{math.MaxInt / 2, nil, ""},
		{int64(len(doc)), nil, ""},
		{int64(len(doc) - 1), jsonpool.ErrTooLarge, ""},
		{1, jsonpool.ErrTooLarge, ""},
		{0, nil, "limit < 1"},
		{-1, nil, "limit < 1"},
		{math.MinInt, nil, "limit < 1"},
	}
	var values jsonpool.Values[map[string]int]
	for _, tc := range tests {
		for _, api := range []string{"Decode", "Values.Decode"} {
			var err error
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg, _ = r.(string)
						if msg == "" {
							msg = "non-string panic"
						}
					}
				}()
				if api == "Decode" {
					var v map[string]int
					err = jsonpool.Decode(strings.NewReader(doc), &v, tc.limit)
					if err == nil && v["a"] != 1 {
						t.Errorf("Decode(limit %d) = %v, want map[a:1]", tc.limit, v)
					}
					return ""
				}
				v, e := values.Decode(strings.NewReader(doc), tc.limit)
				err = e
				if e == nil {
					if (*v)["a"] != 1 {
						t.Errorf("Values.Decode(limit %d) = %v, want map[a:1]", tc.limit, *v)
					}
					values.Put(v)
				}
				return ""
			}()
			switch {
			case tc.panic != "":
				if !strings.Contains(got, tc.panic) {
					t.Errorf("%s(limit %d): panic %q, want one containing %q", api, tc.limit, got, tc.panic)
				}
			case got != "":
				t.Errorf("%s(limit %d): panic %q, want none", api, tc.limit, got)
			case tc.err == nil && err != nil:
				t.Errorf("%s(limit %d) = %v, want nil", api, tc.limit, err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Errorf("%s(limit %d) = %v, want %v", api, tc.limit, err, tc.err)
			}
		}
	}
}
