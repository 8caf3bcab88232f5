package zlibpool

//go:generate go run ../tools/codecgen zlibpool
