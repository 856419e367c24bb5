package mcpbridge

import "time"

// SetClock makes request states expire by now until restore is called.
func SetClock(now func() time.Time) (restore func()) {
	old := timeNow
	timeNow = now
	return func() { timeNow = old }
}
