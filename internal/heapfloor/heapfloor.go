// Package heapfloor keeps a process's garbage collector from running
// often while its live heap is small.
//
// Go collects when the heap has grown by GOGC percent (100) of what the
// last collection left, and no sooner than at 4 MiB. A mod's live heap is
// usually one or two megabytes, so a mod under load collects every few
// megabytes it allocates: dozens of times a second, each collection a
// fixed cost in marking, sweeping and waking the collector's workers. A
// floor on the heap goal (16 MiB) cuts the collections of a small heap by
// four to eight, for at most that much more memory while the mod is busy;
// a heap whose live part is half the floor or more is collected as Go
// would.
package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Floor is the heap goal kept, in bytes.
const Floor = 16 << 20

// maxPercent bounds the GC percent set: Go's smallest goal is 4 MiB scaled
// by it, so at 400 that goal is the floor itself.
const maxPercent = Floor / (4 << 20) * 100

// Start keeps the heap goal at Floor or above while the live heap is under
// half of it, unless $GOGC sets the collector's pace: after each
// collection, it sets the GC percent that makes the next goal reach the
// floor, between Go's default, 100, and 400.
func Start() {
	if os.Getenv("GOGC") != "" {
		return
	}
	t := &tuner{percent: 100, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.arm()
}

// tuner sets the GC percent after each collection, on the goroutine that
// runs cleanups: one at a time.
type tuner struct {
	percent int
	sample  []metrics.Sample
}

// arm has tune run after the next collection: the object it watches is
// unreachable as soon as arm returns.
func (t *tuner) arm() {
	runtime.AddCleanup(new([16]byte), func(t *tuner) { t.tune(); t.arm() }, t)
}

func (t *tuner) tune() {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if p := percentFor(t.sample[0].Value.Uint64()); p != t.percent {
		t.percent = p
		debug.SetGCPercent(p)
	}
}

// percentFor returns the GC percent whose goal, for a live heap of live
// bytes, is Floor, between 100 and maxPercent. Percents are rounded down
// to a multiple of 25, so that a heap that wavers does not reset it after
// every collection.
func percentFor(live uint64) int {
	if live == 0 {
		return maxPercent
	}
	p := (Floor - min(live, Floor)) * 100 / live
	return int(max(100, min(maxPercent, p/25*25)))
}
