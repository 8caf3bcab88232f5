package kgzip

//go:generate go run github.com/reuse-go/reuse/tools/codecgen kgzip
