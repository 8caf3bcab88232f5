package shapes

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"
)

// sums are the first 8 bytes of the SHA-256 of each shape's piece and
// lengths (each a little-endian uint64), taken from the generators as they
// were in dist_test.go and heldout_test.go before they moved here.
var sums = map[string]string{
	"lognormal-small":          "bef2559be48ff70c",
	"lognormal-medium":         "aca48c45f5f331f2",
	"lognormal-heavy":          "e72cc73664dd662f",
	"bimodal":                  "846ff53f20b25f0c",
	"pareto":                   "3855d495d36c63b6",
	"drift":                    "234ae3ecdc714e27",
	"chunk-edge":               "d53156bffe89a4ec",
	"tight":                    "2071bb83d8d71b18",
	"uniform-64K":              "a2d605364de184e3",
	"lognormal-16K-narrow":     "04edab60338b3a15",
	"mix-300-32K":              "1002b11e4e0a6e96",
	"lognormal-8K-pieces-1K":   "dd8778d7894eebe5",
	"lognormal-64K-pieces-16K": "ea35b316b495773a",
	"lognormal-600-whole":      "c8cb25ff9f10377e",
	"exponential-4K-whole":     "9d5915a30aef099d",
	"lognormal-2K-pieces-512":  "260a88ba201daed1",
	"heldout-tinypieces":       "cb907cb91c90c85f",
	"heldout-heavytail":        "44f298a5753ce935",
	"heldout-slowdrift":        "9f05125572d00164",
	"heldout-regimes":          "79381f5d0c0296e6",
	"heldout-json":             "0f18ca1aae24129b",
}

// Sum returns the checksum of s that sums holds.
func sum(s Shape) string {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(s.Piece))
	h.Write(b[:])
	for _, n := range s.Lengths {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}

// TestSums checks that no shape's lengths changed.
func TestSums(t *testing.T) {
	all := All()
	if len(all) != len(sums) {
		t.Errorf("All() has %d shapes, want %d", len(all), len(sums))
	}
	for _, s := range all {
		if len(s.Lengths) != Len {
			t.Errorf("%s: %d lengths, want %d", s.Name, len(s.Lengths), Len)
		}
		if got, want := sum(s), sums[s.Name]; got != want {
			t.Errorf("%s: checksum %s, want %s", s.Name, got, want)
		}
	}
}
