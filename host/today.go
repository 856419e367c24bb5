package host

import (
	"sync/atomic"
	"time"
)

// localDate is the default Options.Today: the local date, formatted once
// a day rather than on every call.
type localDate struct {
	day atomic.Pointer[formattedDay]
}

// formattedDay is one local day, [from, until), and its date.
type formattedDay struct {
	from, until time.Time
	date        string
}

// today returns the date of now, "YYYY-MM-DD".
func (d *localDate) today() string { return d.at(time.Now()) }

func (d *localDate) at(now time.Time) string {
	if day := d.day.Load(); day != nil && !now.Before(day.from) && now.Before(day.until) {
		return day.date
	}
	y, m, dd := now.Date()
	day := &formattedDay{
		from:  time.Date(y, m, dd, 0, 0, 0, 0, now.Location()),
		until: time.Date(y, m, dd+1, 0, 0, 0, 0, now.Location()),
		date:  now.Format(time.DateOnly),
	}
	d.day.Store(day)
	return day.date
}
