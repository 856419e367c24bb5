//go:build !race

package modapi_test

const raceEnabled = false
