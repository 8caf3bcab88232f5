// Package popular holds reductions of code in popular modules poolvet was
// not written for (scripts/poolvet-corpus, issue 59): correct code it once
// reported, each shape beside a bad look-alike that must still be
// reported, and the true findings there that it must keep.
package popular
