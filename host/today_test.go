package host

import (
	"testing"
	"time"
)

func TestLocalDate(t *testing.T) {
	var d localDate
	loc := time.FixedZone("test", 2*60*60)
	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2026, 3, 4, 12, 0, 0, 0, loc), "2026-03-04"},
		{time.Date(2026, 3, 4, 23, 59, 59, 999999999, loc), "2026-03-04"},
		{time.Date(2026, 3, 5, 0, 0, 0, 0, loc), "2026-03-05"},  // the next day
		{time.Date(2026, 3, 4, 23, 0, 0, 0, loc), "2026-03-04"}, // the clock went back
		{time.Date(2026, 12, 31, 23, 0, 0, 0, loc), "2026-12-31"},
		{time.Date(2027, 1, 1, 0, 0, 1, 0, loc), "2027-01-01"},
	} {
		if got := d.at(tc.now); got != tc.want {
			t.Errorf("at %s: got %s, want %s", tc.now, got, tc.want)
		}
	}
	before := time.Now().Format(time.DateOnly)
	got := d.today()
	if after := time.Now().Format(time.DateOnly); got != before && got != after {
		t.Errorf("today: got %s, want %s", got, after)
	}
}
