//go:build !windows

package serve

import (
	"log/slog"
	"os"
	"time"
)

// watchParent exits the process when its parent changes: the host died and
// the mod was reparented. On Linux the host also asks the kernel to kill
// the mod when it dies; this covers hosts that cannot, and other systems.
func watchParent(ppid int, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for range t.C {
		if os.Getppid() != ppid {
			log.Warn("host process gone; exiting")
			os.Exit(1)
		}
	}
}
