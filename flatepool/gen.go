package flatepool

//go:generate go run ../tools/codecgen flatepool
