// Package rawsock serves a TCP listener's connections with reads and
// writes that are raw system calls on their non-blocking sockets, waiting
// in the runtime's poller as package net does.
//
// A read or write through package net enters a system call the scheduler
// accounts for, and the first one after the process was idle wakes the
// runtime's monitor thread (sysmon), which then polls every 20 µs until
// the process has been busy without system calls for a while: in an HTTP
// server whose every request wakes an idle process, that thread is a
// large part of the CPU a request costs. Neither call blocks, so neither
// needs that accounting. Only on Linux; elsewhere Listener changes nothing.
package rawsock
