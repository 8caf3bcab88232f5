// Package benchmarks compares reuse with other pooling libraries. It is a
// separate module so that the reuse module itself keeps no third-party
// dependencies; it holds only benchmarks and the tests that check them.
package benchmarks
