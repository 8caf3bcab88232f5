package main

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// appendEncode writes v and a newline to w, byte for byte as encoding/json's
// Encoder does, without encoding/json: the Encoder encodes into a buffer
// from a pool of its own, which keeps buffers as large as the largest
// response, and then writes it to w in one piece; this formats the
// response a few items at a time into a scratch slice and writes each piece
// to w, so that the pooled buffer under test is the only one that holds the
// response. The scratch (512 bytes) is allocated per response, for every
// variant alike: w.Write through an interface would move a stack array to
// the heap anyway.
func appendEncode(w io.Writer, v *response) error {
	b := make([]byte, 0, 512)
	b = append(b, `{"request":`...)
	b = strconv.AppendInt(b, int64(v.Request), 10)
	b = append(b, `,"items":[`...)
	for i := range v.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(b, &v.Items[i])
		if len(b) >= 256 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "]}\n"...)
	_, err := w.Write(b)
	return err
}

// appendItem appends the JSON of it, as encoding/json writes it.
func appendItem(b []byte, it *item) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(it.ID), 10)
	b = append(b, `,"name":`...)
	b = appendString(b, it.Name)
	b = append(b, `,"score":`...)
	b = appendFloat(b, it.Score)
	b = append(b, `,"tags":`...)
	if it.Tags == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range it.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, t)
		}
		b = append(b, ']')
	}
	if it.Note != "" {
		b = append(b, `,"note":`...)
		b = appendString(b, it.Note)
	}
	return append(b, '}')
}

// appendFloat appends f as encoding/json formats a float64: the shortest
// decimal, in exponent form below 1e-6 and from 1e21 on, with a one-digit
// negative exponent written without its leading zero.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendString appends s quoted as encoding/json's Encoder quotes it, with
// HTML escaping on (its default): invalid UTF-8 as \ufffd, U+2028 and
// U+2029 escaped, and ASCII as appendASCII writes it.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			b = appendASCII(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendASCII appends the ASCII byte c of a string as encoding/json writes
// it: " and \ after a backslash, \b, \f, \n, \r and \t, the other control
// characters and <, > and & as \u00XX.
func appendASCII(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	case '<', '>', '&':
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	if c < 0x20 {
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
	return append(b, c)
}
