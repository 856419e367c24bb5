//go:build unix

package crashy

import (
	"encoding/binary"
	"errors"
	"syscall"
)

// scribbleOnLane writes, on the mod's call lane, the frame of an outcome
// for a call the host never made: the lane is the process's one unix
// socket with no name at either end (the gRPC connection's has the socket
// file's). Linux reads an unnamed socket's address as "@".
func scribbleOnLane() error {
	frame := make([]byte, 13)
	binary.BigEndian.PutUint64(frame[4:], 1<<60)
	frame[12] = 4 // outcome
	for fd := 3; fd < 1024; fd++ {
		local, err := syscall.Getsockname(fd)
		if err != nil {
			continue
		}
		peer, err := syscall.Getpeername(fd)
		if err != nil {
			continue
		}
		l, ok1 := local.(*syscall.SockaddrUnix)
		p, ok2 := peer.(*syscall.SockaddrUnix)
		if ok1 && ok2 && unnamed(l.Name) && unnamed(p.Name) {
			_, err := syscall.Write(fd, frame)
			return err
		}
	}
	return errors.New("crashy: no call lane")
}

func unnamed(name string) bool { return name == "" || name == "@" }
