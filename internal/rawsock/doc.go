// Package rawsock gives a connection (or a listener's connections) reads
// and writes that are raw system calls on its non-blocking socket, waiting
// in the runtime's poller as package net does: the call lane's ends and
// modhost's HTTP connections.
//
// A read or write through package net enters a system call the scheduler
// accounts for, and the first one after the process was idle wakes the
// runtime's monitor thread (sysmon), which then polls every 20 µs until
// the process has been busy without system calls for a while: where every
// call or request wakes an idle process, that thread costs more CPU than
// the reads and writes. Neither call blocks, so neither needs that
// accounting. Only on Linux; elsewhere Conn and Listener change nothing.
package rawsock
