package report

import (
	"encoding/json"
	"io"
)

// WriteJSON writes the report as indented JSON, with its Chance computed
// from its workloads.
func WriteJSON(w io.Writer, r Report) error {
	c := headlineChance(r)
	r.Chance = &c
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
