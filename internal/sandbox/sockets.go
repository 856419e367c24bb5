package sandbox

// Internet is which AF_INET and AF_INET6 sockets the seccomp filter lets a
// confined process open. Landlock filters TCP by port (ABI 4) and nothing
// else of the network; this rule is what closes the rest.
type Internet uint8

const (
	// InternetDeclared derives the rule from the policy: InternetNone
	// without ConnectPorts or ConnectAny, InternetTCPUDP with either.
	InternetDeclared Internet = iota
	// InternetNone refuses every internet socket, and connect(2) on any
	// socket, so that a unix socket made outside the process (a pathname
	// or abstract one) is out of reach too; netlink sockets are refused.
	InternetNone
	// InternetTCP allows TCP sockets (not MPTCP) and netlink route
	// sockets, which package net reads interfaces with; UDP is refused,
	// and with it DNS over UDP.
	InternetTCP
	// InternetTCPUDP allows TCP and UDP sockets and netlink route
	// sockets. UDP reaches any host and port: DNS needs it.
	InternetTCPUDP
)

// internet is the rule p's process gets.
func (p *Policy) internet() Internet {
	switch {
	case p.Internet != InternetDeclared:
		return p.Internet
	case p.ConnectAny || len(p.ConnectPorts) > 0:
		return InternetTCPUDP
	}
	return InternetNone
}
