module github.com/reuse-go/reuse/ports

go 1.24

replace github.com/reuse-go/reuse => ../

require (
	github.com/go-resty/resty/v2 v2.17.2
	github.com/reuse-go/reuse v0.1.0
	github.com/rs/zerolog v1.34.0
	github.com/valyala/fasttemplate v1.2.2
)

require (
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.19 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/net v0.43.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
)
