package chart

// TextWidth returns an upper bound on the width in pixels of s in a sans
// serif font of size pixels, from the advance widths of DejaVu Sans, the
// widest of the usual sans serif fonts (Chromium's system-ui on Linux
// resolves to it or to a narrower one), in thousandths of the size, so that
// a chart can make room for its labels without measuring them in a
// browser. Characters not in the table count as the widest capital.
func TextWidth(s string, size float64) float64 {
	w := 0
	for _, r := range s {
		if r < rune(len(asciiWidths)) && asciiWidths[r] != 0 {
			w += int(asciiWidths[r])
		} else {
			w += 1000
		}
	}
	return float64(w) * size / 1000
}

// asciiWidths are DejaVu Sans's advance widths of the printable ASCII
// characters, in thousandths of an em, rounded up.
var asciiWidths = [128]uint16{
	' ': 318, '!': 401, '"': 461, '#': 838, '$': 637, '%': 950, '&': 780, '\'': 276,
	'(': 391, ')': 391, '*': 500, '+': 838, ',': 318, '-': 361, '.': 318, '/': 337,
	'0': 637, '1': 637, '2': 637, '3': 637, '4': 637, '5': 637, '6': 637, '7': 637, '8': 637, '9': 637,
	':': 337, ';': 337, '<': 838, '=': 838, '>': 838, '?': 531, '@': 1000,
	'A': 685, 'B': 686, 'C': 699, 'D': 771, 'E': 632, 'F': 576, 'G': 775, 'H': 752, 'I': 295,
	'J': 295, 'K': 656, 'L': 557, 'M': 863, 'N': 748, 'O': 787, 'P': 604, 'Q': 787, 'R': 695,
	'S': 635, 'T': 611, 'U': 732, 'V': 685, 'W': 989, 'X': 686, 'Y': 611, 'Z': 686,
	'[': 391, '\\': 337, ']': 391, '^': 838, '_': 500, '`': 500,
	'a': 613, 'b': 635, 'c': 550, 'd': 635, 'e': 616, 'f': 352, 'g': 635, 'h': 634, 'i': 278,
	'j': 278, 'k': 580, 'l': 278, 'm': 974, 'n': 634, 'o': 612, 'p': 635, 'q': 635, 'r': 412,
	's': 522, 't': 392, 'u': 634, 'v': 592, 'w': 818, 'x': 592, 'y': 592, 'z': 525,
	'{': 637, '|': 337, '}': 637, '~': 838,
}
