// Command jsonserver is the JSON API server of advise's end-to-end test, a
// program of a user's module (example.com/jsonserver) as issue 60's was: it
// decodes JSON request bodies with jsonpool, builds its answers in pooled
// bytebuf Buffers, compresses them (and decompresses gzip bodies) with
// khttp, and serves its heap profile at /debug/pprof/allocs.
//
// Usage:
//
//	jsonserver [-addr 127.0.0.1:0] [-memprofilerate 1]
//
// It prints the address it listens on, and serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"

	"example.com/jsonserver/api"
	"github.com/reuse-go/reuse/httpcompress"
	"github.com/reuse-go/reuse/httpcompress/khttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "`address` to listen on")
	rate := flag.Int("memprofilerate", 1, "runtime.MemProfileRate: 1 samples every allocation")
	flag.Parse()
	runtime.MemProfileRate = *rate
	compress, err := khttp.New(httpcompress.Config{RequestLimit: 8 << 20})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /items", compress(api.New()))
	mux.Handle("GET /debug/pprof/allocs", pprof.Handler("allocs"))
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "listening on http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, mux))
}
