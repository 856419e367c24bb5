package mcpbridge

// maxIdleWorkers is how many goroutines that ran a call wait for the next
// one (goRun).
const maxIdleWorkers = 8

// goRun runs f, a run's call, counted in tr.wg, on a goroutine that ran
// one before when one is idle, else on a new one. A call goes deep (the
// host's call, the lane): a new goroutine grows its stack, copying it,
// for every call; one that ran a call has grown it already.
func (tr *taskRunner) goRun(f func()) {
	tr.wg.Add(1)
	select {
	case tr.idle <- f:
	default:
		go tr.work(f)
	}
}

// work runs f, then the calls goRun hands it while it waits among at most
// maxIdleWorkers idle ones, until the runner stops.
func (tr *taskRunner) work(f func()) {
	for {
		f()
		tr.wg.Done()
		if tr.idleWorkers.Add(1) > maxIdleWorkers {
			tr.idleWorkers.Add(-1)
			return
		}
		select {
		case f = <-tr.idle:
			tr.idleWorkers.Add(-1)
		case <-tr.ctx.Done():
			tr.idleWorkers.Add(-1)
			return
		}
	}
}
