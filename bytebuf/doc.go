// Package bytebuf provides Buffer, a byte buffer for building output, and
// Pool, a pool of Buffers that calibrates itself and keeps its memory within
// a bound from the first call.
package bytebuf
