module github.com/reuse-go/reuse

go 1.24
