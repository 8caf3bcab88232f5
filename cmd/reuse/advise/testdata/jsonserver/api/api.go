// Package api is the handler of jsonserver: it decodes a list of items,
// keeps those with a name, and answers them as JSON.
package api

import (
	"errors"
	"net/http"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/jsonpool"
)

// Item holds pointers (a string, a slice): a pool of []Item must clear
// them.
type Item struct {
	ID   int      `json:"id"`
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// API answers POST /items.
type API struct {
	buffers bytebuf.Pool
}

// New returns the handler.
func New() *API { return new(API) }

type request struct {
	Items []Item `json:"items"`
}

// ServeHTTP decodes the body, keeps the items with a name in a slice of
// its own, and writes them back as JSON.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := jsonpool.Decode(r.Body, &req, 4<<20); err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, reuse.ErrTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, err.Error(), status)
		return
	}
	named := make([]Item, 0, len(req.Items)) // the site advise must say to pool with Zero
	for _, it := range req.Items {
		if it.Name != "" {
			named = append(named, it)
		}
	}
	buf := a.buffers.Get()
	defer a.buffers.Put(buf)
	if err := jsonpool.Encode(buf, &named); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}
