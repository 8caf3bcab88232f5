module github.com/reuse-go/reuse/poolvet

go 1.24.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	golang.org/x/tools v0.42.0
)

require (
	golang.org/x/mod v0.33.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
)
