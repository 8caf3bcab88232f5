package httpcompress

import "strings"

// qMax is q=1 in thousandths, the precision RFC 9110 allows.
const qMax = 1000

// negotiate picks the encoding to use for a request's Accept-Encoding field
// values, following RFC 9110 section 12.5.3. It returns the index into names of
// the acceptable encoding with the highest q-value, ties going to the
// earlier name (the server's preference), or -1 when none is acceptable.
// identityRefused reports "identity;q=0", or "*;q=0" without an identity
// entry.
//
// A name not listed takes the q-value of "*" if present and is refused
// otherwise. "x-gzip" counts as "gzip" (RFC 9110 section 8.4.1.3). A
// malformed q-value counts as q=0: refusing is the safe reading. negotiate
// does not allocate.
func negotiate(values []string, names []string) (best int, identityRefused bool) {
	var q [maxEncodings]int
	for i := range names {
		q[i] = -1 // not listed
	}
	star, identity := -1, -1
	for _, ae := range values {
		star, identity = scan(ae, names, &q, star, identity)
	}
	best = -1
	bestQ := 0
	for i := range names {
		v := q[i]
		if v < 0 {
			v = max(star, 0)
		}
		if v > bestQ {
			best, bestQ = i, v
		}
	}
	identityRefused = identity == 0 || (identity < 0 && star == 0)
	return best, identityRefused
}

// scan reads one Accept-Encoding field value into q, star and identity.
func scan(ae string, names []string, q *[maxEncodings]int, star, identity int) (int, int) {
	for len(ae) > 0 {
		var item string
		if i := strings.IndexByte(ae, ','); i >= 0 {
			item, ae = ae[:i], ae[i+1:]
		} else {
			item, ae = ae, ""
		}
		token, qv := parseItem(item)
		switch {
		case token == "":
			continue
		case token == "*":
			star = max(star, qv)
			continue
		case strings.EqualFold(token, "identity"):
			identity = max(identity, qv)
			continue
		case strings.EqualFold(token, "x-gzip"):
			token = "gzip"
		}
		for i, n := range names {
			if strings.EqualFold(token, n) {
				q[i] = max(q[i], qv)
			}
		}
	}
	return star, identity
}

// parseItem splits one Accept-Encoding element, "token;q=0.5;ext=1", into
// its token and its q-value in thousandths (qMax when absent, 0 when
// malformed).
func parseItem(item string) (token string, q int) {
	q = qMax
	rest := ""
	if i := strings.IndexByte(item, ';'); i >= 0 {
		item, rest = item[:i], item[i+1:]
	}
	token = strings.TrimSpace(item)
	for len(rest) > 0 {
		var p string
		if i := strings.IndexByte(rest, ';'); i >= 0 {
			p, rest = rest[:i], rest[i+1:]
		} else {
			p, rest = rest, ""
		}
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=' {
			q = parseQ(strings.TrimSpace(p[2:]))
		}
	}
	return token, q
}

// parseQ parses an RFC 9110 qvalue ("0", "0.5", "1.000") into thousandths.
// Anything else is malformed and returns 0.
func parseQ(s string) int {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0
	}
	v := int(s[0]-'0') * 1000
	if len(s) > 1 {
		if s[1] != '.' {
			return 0
		}
		scale := 100
		for _, c := range []byte(s[2:]) {
			if c < '0' || c > '9' {
				return 0
			}
			v += int(c-'0') * scale
			scale /= 10
		}
	}
	if v > qMax {
		return 0
	}
	return v
}
