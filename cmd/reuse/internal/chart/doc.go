// Package chart draws the report's charts as inline SVG: a horizontal bar
// chart and a line chart, each on a linear or logarithmic scale.
//
// It is deliberately small and uses only the standard library. The report's
// HTML page must be one self-contained file that opens without network
// access, and the reuse module must not gain a third-party dependency; the Go
// charting libraries either draw to raster images, emit JavaScript that loads
// from a CDN, or pull in dependencies. Two chart kinds with a fixed look
// need little code, and it is tested for well-formed SVG and correct scales.
//
// # Ownership
//
// The functions return a new string; nothing is pooled or retained.
//
// # Concurrency
//
// Every function is safe for concurrent use: there is no package state.
//
// # When not to pool
//
// Nothing here is on a hot path; charts are drawn once per report.
package chart
