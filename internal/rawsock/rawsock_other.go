//go:build !linux

package rawsock

import "net"

// Listener returns ln: only on Linux do the reads and writes skip package
// net.
func Listener(ln net.Listener) net.Listener { return ln }

// Conn returns c: only on Linux do the reads and writes skip package net.
func Conn(c net.Conn) net.Conn { return c }
