package flatepool

//go:generate go run ../internal/codecgen flatepool
