package kgzip

//go:generate go run github.com/reuse-go/reuse/internal/codecgen kgzip
