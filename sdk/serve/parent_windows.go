package serve

import (
	"log/slog"
	"os"
	"time"
)

// watchParent exits the process when its parent exits. Windows does not
// reparent a process whose parent died, so the mod waits on the parent's
// process handle instead of polling its parent id.
func watchParent(ppid int, _ time.Duration, log *slog.Logger) {
	if p, err := os.FindProcess(ppid); err == nil {
		p.Wait()
	}
	log.Warn("host process gone; exiting")
	os.Exit(1)
}
