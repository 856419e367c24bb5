package sandbox

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"time"
)

// How long the host trusts its answer for a declared name, and how often
// at most an address the answer lacks makes it ask again: a name whose
// addresses rotate still connects, and a mod that keeps dialling a refused
// address costs at most one lookup a second.
const (
	nameTTL       = 30 * time.Second
	nameRecheck   = time.Second
	lookupTimeout = 5 * time.Second
)

// hostList is the "host:port" addresses a process may connect to, as the
// supervisor of its connect(2) calls checks them. A name is resolved by
// the host when a connect asks for its port, and the answer kept for
// nameTTL.
type hostList struct {
	entries []hostEntry
	lookup  func(ctx context.Context, host string) ([]netip.Addr, error)

	mu    sync.Mutex
	names map[string]resolved
}

// hostEntry is one declared address: an IP literal, or a name.
type hostEntry struct {
	ip   netip.Addr // valid for a literal
	name string     // else the name to resolve
	port uint16
}

// resolved is a name's addresses and when the host asked for them.
type resolved struct {
	addrs []netip.Addr
	at    time.Time
}

// newHostList parses addresses, each "host:port" with a host name or an
// IP literal (IPv6 in brackets) and a port from 1 to 65535.
func newHostList(addresses []string) (*hostList, error) {
	l := &hostList{names: map[string]resolved{}, lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}}
	for _, a := range addresses {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return nil, fmt.Errorf("connect permission %q: want host:port: %w", a, err)
		}
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 || host == "" {
			return nil, fmt.Errorf("connect permission %q: want a host and a port from 1 to 65535", a)
		}
		e := hostEntry{port: uint16(n)}
		if ip, err := netip.ParseAddr(host); err == nil {
			e.ip = ip.Unmap().WithZone("")
		} else {
			e.name = host
		}
		l.entries = append(l.entries, e)
	}
	return l, nil
}

// allows reports whether the list lets a process connect to addr. An
// IPv4-mapped IPv6 address is its IPv4 address; a zone is ignored.
func (l *hostList) allows(addr netip.AddrPort) bool {
	ip := addr.Addr().Unmap().WithZone("")
	for _, e := range l.entries {
		if e.port != addr.Port() {
			continue
		}
		if e.name == "" && e.ip == ip || e.name != "" && l.nameHas(e.name, ip) {
			return true
		}
	}
	return false
}

// nameHas reports whether name resolves to ip: from the kept answer when
// it has ip, else from a new one, when the kept one is older than
// nameRecheck.
func (l *hostList) nameHas(name string, ip netip.Addr) bool {
	l.mu.Lock()
	r, ok := l.names[name]
	l.mu.Unlock()
	now := time.Now()
	if ok && now.Sub(r.at) < nameTTL && slices.Contains(r.addrs, ip) {
		return true
	}
	if ok && now.Sub(r.at) < nameRecheck {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	addrs, err := l.lookup(ctx, name)
	if err != nil {
		addrs = nil // kept too: a name that does not resolve is asked at most once a second
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap().WithZone("")
	}
	l.mu.Lock()
	l.names[name] = resolved{addrs: addrs, at: now}
	l.mu.Unlock()
	return slices.Contains(addrs, ip)
}
