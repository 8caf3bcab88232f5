package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteText writes the advice for a reader: the sites to pool, then the
// heavy sites not to pool, at most top of each.
func WriteText(w io.Writer, a Advice, top int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Heap profile: %s allocated in %s objects over its life (alloc_space). Break-even: %s.\n",
		size(a.TotalBytes), count(a.TotalObjects), size(a.BreakEven))
	if a.Yours != "" {
		fmt.Fprintf(&b, "Your code: %s.\n", a.Yours)
	}
	if len(a.Packages) > 0 {
		fmt.Fprintf(&b, "Your packages in this profile: %s.\n", strings.Join(a.Packages, ", "))
	}
	b.WriteString("\nPool these, most bytes first:\n")
	if len(a.Pool) == 0 {
		b.WriteString("  none: no heavy site allocates something a reuse pool would hand back\n")
	}
	for i, s := range a.Pool {
		if i == top {
			fmt.Fprintf(&b, "  … and %d more (-top)\n", len(a.Pool)-top)
			break
		}
		fmt.Fprintf(&b, "%3d. %s (%s)\n", i+1, s.Function, where(s))
		fmt.Fprintf(&b, "     allocates: %s; %s in %s objects\n", s.Kind, size(s.Bytes), count(s.Objects))
		fmt.Fprintf(&b, "     use:       %s\n", s.Use)
		if s.Bound != "" {
			fmt.Fprintf(&b, "     bound:     %s\n", s.Bound)
		}
		fmt.Fprintf(&b, "     saves:     %s\n", s.Saving)
	}
	b.WriteString("\nDo not pool these heavy sites:\n")
	if len(a.Skip) == 0 {
		b.WriteString("  none\n")
	}
	for i, s := range a.Skip {
		if i == top {
			fmt.Fprintf(&b, "  … and %d more (-top)\n", len(a.Skip)-top)
			break
		}
		fmt.Fprintf(&b, "  - %s (%s): %s in %s objects (%.0f%%)\n    %s\n", s.Function, where(s), size(s.Bytes), count(s.Objects), 100*s.Share, s.Why)
	}
	if a.Minor > 0 {
		fmt.Fprintf(&b, "\n%d more sites each allocate under 0.5%% of the bytes: not worth a pool.\n", a.Minor)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func where(s Site) string {
	if s.File == "" {
		return "no file"
	}
	w := fmt.Sprintf("%s:%d", filepath.Base(s.File), s.Line)
	if s.Inside != "" {
		w += ", inside " + s.Inside
	}
	return w
}
