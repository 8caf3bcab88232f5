module github.com/reuse-go/reuse/httpcompress/khttp

go 1.24

// klauspost/compress v1.18.0 declares go 1.22, within this module's go 1.24.
require (
	github.com/klauspost/compress v1.18.0
	github.com/reuse-go/reuse v0.1.0
)

replace github.com/reuse-go/reuse => ../..
