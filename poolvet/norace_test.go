//go:build !race

package poolvet_test

const raceEnabled = false
