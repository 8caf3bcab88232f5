package httpcompress

import "testing"

func TestNegotiate(t *testing.T) {
	both := []string{"zstd", "gzip"}
	gz := []string{"gzip"}
	tests := []struct {
		ae      string
		names   []string
		want    int
		refused bool
	}{
		{"", gz, -1, false},
		{"gzip", gz, 0, false},
		{"GZip", gz, 0, false},
		{"x-gzip", gz, 0, false},
		{"deflate, br", gz, -1, false},
		{"gzip;q=0", gz, -1, false},
		{"gzip; q=0.000", gz, -1, false},
		{"gzip;q=0.001", gz, 0, false},
		{"gzip;q=1.000", gz, 0, false},
		{"gzip;q=1.001", gz, -1, false}, // malformed: refused
		{"gzip;q=abc", gz, -1, false},
		{"gzip;q=", gz, -1, false},
		{"gzip;Q=0.5", gz, 0, false},
		{"gzip;level=1;q=0.2", gz, 0, false},
		{"*", gz, 0, false},
		{"*;q=0", gz, -1, true},
		{"*;q=0, gzip", gz, 0, true},
		{"gzip;q=0, *", gz, -1, false},
		{"identity", gz, -1, false},
		{"identity;q=0", gz, -1, true},
		{"identity;q=0, gzip", gz, 0, true},
		{"identity, *;q=0", gz, -1, false},
		{" gzip , deflate ", gz, 0, false},
		{",,gzip,,", gz, 0, false},
		{"gzip, zstd", both, 0, false},           // tie: server's order
		{"gzip;q=1, zstd;q=0.9", both, 1, false}, // client's q wins
		{"zstd;q=0, gzip", both, 1, false},       // refusal
		{"br;q=1, *;q=0.1", both, 0, false},      // * covers both
		{"gzip;q=0.5, gzip;q=0.8", gz, 0, false}, // repeated: the higher
		{"gzip;q=0.2, zstd;q=0.3, *;q=0.9", both, 0, false},
	}
	for _, tc := range tests {
		got, refused := negotiate([]string{tc.ae}, tc.names)
		if got != tc.want || refused != tc.refused {
			t.Errorf("negotiate(%q, %q) = %d, %v; want %d, %v", tc.ae, tc.names, got, refused, tc.want, tc.refused)
		}
	}
	// Several field lines combine.
	if got, _ := negotiate([]string{"br", "gzip;q=0.5"}, gz); got != 0 {
		t.Errorf("two field lines: got %d, want 0", got)
	}
}

func TestNegotiateAllocs(t *testing.T) {
	names := []string{"zstd", "gzip"}
	ae := []string{"gzip, deflate, br;q=0.9, zstd;q=0.8, *;q=0.1"}
	if n := testing.AllocsPerRun(100, func() { negotiate(ae, names) }); n != 0 {
		t.Errorf("negotiate allocates %v times, want 0", n)
	}
}

func TestParseQ(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "1": 1000, "0.5": 500, "0.25": 250, "0.125": 125, "1.0": 1000, "1.000": 1000,
		"0.1234": 0, "2": 0, "1.5": 0, ".5": 0, "0,5": 0, "-1": 0, "": 0, "0.": 0} {
		if got := parseQ(s); got != want {
			t.Errorf("parseQ(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"": true, "text/html; charset=utf-8": true, "application/json": true, "image/svg+xml": true,
		"image/png": false, "IMAGE/JPEG": false, "video/mp4": false, "audio/ogg": false,
		"application/zip": false, "application/gzip": false, "application/x-gzip": false,
		"application/zstd": false, "application/x-7z-compressed": false, "font/woff2": false,
		"font/ttf": true, "application/octet-stream": true, "garbage": true,
	} {
		if got := Compressible(ct); got != want {
			t.Errorf("Compressible(%q) = %v, want %v", ct, got, want)
		}
	}
}
