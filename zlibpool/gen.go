package zlibpool

//go:generate go run ../internal/codecgen zlibpool
