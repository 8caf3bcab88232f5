// Package snippets holds the test that compiles every Go snippet of the
// repository's README.md and MIGRATING.md, as a reader would paste them. It
// lives in the examples module because the snippets use reuseprom and
// Prometheus, which the core module does not depend on.
package snippets
