module example.com/jsonserver

go 1.24

require (
	github.com/reuse-go/reuse v0.1.0
	github.com/reuse-go/reuse/httpcompress/khttp v0.1.0
)

require github.com/klauspost/compress v1.18.0 // indirect

replace (
	github.com/reuse-go/reuse => ../../../../..
	github.com/reuse-go/reuse/httpcompress/khttp => ../../../../../httpcompress/khttp
)
