package logger

import "io"

// NewZerologPool returns a Logger that pools its Events as zerolog does (a
// sync.Pool, and an early return past 64 KiB), for the benchmark that
// compares only the pools.
func NewZerologPool(w io.Writer) Logger { return Logger{w: w, zerologPool: true} }
