package gzpool

//go:generate go run ../internal/codecgen gzpool
