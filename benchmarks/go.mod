module github.com/reuse-go/reuse/benchmarks

go 1.24

replace github.com/reuse-go/reuse => ../

require (
	github.com/libp2p/go-buffer-pool v0.1.0
	github.com/reuse-go/reuse v0.1.0
	github.com/valyala/bytebufferpool v1.0.0
	go.uber.org/zap v1.28.0
)

// httpcompress benchmarks: gzhttp, and khttp from this repository.
require (
	github.com/klauspost/compress v1.18.0
	github.com/reuse-go/reuse/httpcompress/khttp v0.1.0
)

replace github.com/reuse-go/reuse/httpcompress/khttp => ../httpcompress/khttp
