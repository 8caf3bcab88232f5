// Package heldout is a held-out set: misuse cases and clean look-alikes
// written before the analyzer changes of issue 33, from the kinds a new
// user met and from pool bugs reported in popular Go projects (each case
// names its source). It is never edited to suit the analyzer: TestHeldOut
// prints recall on it and lists the misses.
//
// Every bad case carries a want comment on the line the report belongs to; the
// patterns are loose on purpose (the finding, not its wording, is tested).
// Clean cases have none: any report there is a false positive.
package heldout
