module github.com/reuse-go/reuse/cmd/reuse/advise

go 1.24

require github.com/google/pprof v0.0.0-20250403155104-27863c87afa6
