package gzpool

//go:generate go run ../tools/codecgen gzpool
