//go:build !paired_pad

package main

// padUse is nothing without the paired_pad tag (see pad.go).
func padUse() {}
