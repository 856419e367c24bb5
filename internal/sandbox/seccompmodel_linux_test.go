package sandbox

import (
	"slices"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// modelDecision is what the seccomp filter of p decides, written out in
// Go as the filter's comments state it.
func modelDecision(p *Policy, arch, nr uint32, args [6]uint64) uint32 {
	if arch != auditArch() || arch == unix.AUDIT_ARCH_X86_64 && nr >= x32Bit || slices.Contains(refused, nr) {
		return eperm
	}
	low := func(i int) uint32 { return uint32(args[i]) }
	internet := p.internet()
	fastOpen := internet != InternetNone && !p.ConnectAny
	refuseIf := func(refuse bool, errno uint32) uint32 {
		if refuse {
			return errno
		}
		return allow
	}
	switch nr {
	case unix.SYS_CLONE3:
		return enosys
	case unix.SYS_CLONE:
		return refuseIf(low(0)&newNamespaces != 0, eperm)
	case unix.SYS_KILL:
		return refuseIf(int32(low(0)) <= 0, eperm)
	case unix.SYS_SOCKETPAIR:
		return refuseIf(low(1)&sockTypeMask == unix.SOCK_DGRAM, eacces)
	case unix.SYS_SOCKET:
		family, typ, proto := low(0), low(1)&sockTypeMask, low(2)
		switch {
		case family == unix.AF_UNIX:
			return refuseIf(typ != unix.SOCK_STREAM, eacces)
		case internet == InternetNone:
			return eacces
		case family == unix.AF_NETLINK:
			return refuseIf(proto != unix.NETLINK_ROUTE, eacces)
		case family != unix.AF_INET && family != unix.AF_INET6:
			return eacces
		case typ == unix.SOCK_STREAM:
			return refuseIf(proto != 0 && proto != unix.IPPROTO_TCP, eacces)
		case typ == unix.SOCK_DGRAM && internet == InternetTCPUDP:
			return refuseIf(proto != 0 && proto != unix.IPPROTO_UDP, eacces)
		}
		return eacces
	case unix.SYS_CONNECT:
		switch {
		case internet == InternetNone:
			return eacces
		case p.checksHosts():
			return notify
		}
	case unix.SYS_SENDTO, unix.SYS_SENDMMSG:
		return refuseIf(fastOpen && low(3)&unix.MSG_FASTOPEN != 0, eacces)
	case unix.SYS_SENDMSG:
		return refuseIf(fastOpen && low(2)&unix.MSG_FASTOPEN != 0, eacces)
	}
	return allow
}

// modelPolicies are policies whose filters differ: every rule for
// internet sockets, connect checked by the host or not, anywhere or not.
func modelPolicies() map[string]*Policy {
	return map[string]*Policy{
		"none":               {Seccomp: true},
		"ports":              {ConnectPorts: []uint16{5432}, Seccomp: true},
		"checked":            {Connect: []string{"db.internal:5432"}, ConnectPorts: []uint16{5432}, CheckHosts: true, Seccomp: true},
		"anywhere":           {ConnectAny: true, CheckHosts: true, Seccomp: true},
		"tcp only, ports":    {Internet: InternetTCP, ConnectPorts: []uint16{443}, Seccomp: true},
		"tcp only, anywhere": {Internet: InternetTCP, ConnectAny: true, Seccomp: true},
		"tcp and udp":        {Internet: InternetTCPUDP, Seccomp: true},
		"none, ports":        {Internet: InternetNone, ConnectPorts: []uint16{5432}, Seccomp: true},
	}
}

// modelArgs are argument lists that reach every branch of the filter:
// families, types (with their flags), protocols, pids, clone flags and
// send flags, with and without junk in the high 32 bits, which the
// filter must ignore as the kernel does.
func modelArgs() [][6]uint64 {
	firsts := []uint64{0, 1, unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK, unix.AF_PACKET, unix.AF_VSOCK,
		4242, 0xffff_ffff, 1 << 31, unix.CLONE_VM | unix.CLONE_THREAD | unix.CLONE_SIGHAND}
	for _, ns := range []uint64{unix.CLONE_NEWNS, unix.CLONE_NEWCGROUP, unix.CLONE_NEWUTS, unix.CLONE_NEWIPC,
		unix.CLONE_NEWUSER, unix.CLONE_NEWPID, unix.CLONE_NEWNET} {
		firsts = append(firsts, ns|unix.CLONE_VM)
	}
	types := []uint64{0, unix.SOCK_STREAM, unix.SOCK_DGRAM, unix.SOCK_RAW, unix.SOCK_SEQPACKET,
		unix.SOCK_STREAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC, unix.MSG_FASTOPEN}
	protos := []uint64{0, unix.IPPROTO_TCP, unix.IPPROTO_UDP, unix.IPPROTO_MPTCP, unix.IPPROTO_ICMP, unix.NETLINK_AUDIT,
		unix.MSG_FASTOPEN, unix.MSG_FASTOPEN | unix.MSG_NOSIGNAL}
	flags := []uint64{0, unix.MSG_FASTOPEN, unix.MSG_NOSIGNAL}
	const junk = 0xdead_beef << 32
	var out [][6]uint64
	for _, a := range firsts {
		for _, b := range types {
			for _, c := range protos {
				for _, d := range flags {
					out = append(out, [6]uint64{a, b, c, d}, [6]uint64{junk | a, junk | b, junk | c, junk | d, junk, junk})
				}
			}
		}
	}
	return out
}

// TestFilterMatchesModel runs each policy's filter in golang.org/x/net/bpf's
// virtual machine on every system call number (and numbers beyond, the
// x32 ABI's, another architecture's) with argument lists that reach each
// branch, and wants the model's decision for each.
func TestFilterMatchesModel(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	argsFor := map[uint32][][6]uint64{}
	for _, nr := range []uint32{unix.SYS_CLONE, unix.SYS_KILL, unix.SYS_SOCKET, unix.SYS_SOCKETPAIR, unix.SYS_CONNECT,
		unix.SYS_SENDTO, unix.SYS_SENDMSG, unix.SYS_SENDMMSG} {
		argsFor[nr] = modelArgs()
	}
	// Other system calls: a sample of the lists.
	var some [][6]uint64
	for i, args := range modelArgs() {
		if i%89 == 0 {
			some = append(some, args)
		}
	}
	var nrs []uint32
	for nr := range uint32(1024) {
		nrs = append(nrs, nr)
	}
	nrs = append(nrs, x32Bit-1, x32Bit, x32Bit|unix.SYS_READ, x32Bit|unix.SYS_PTRACE, x32Bit|unix.SYS_KILL, 1<<31, 0xffff_ffff)
	for name, p := range modelPolicies() {
		filter, err := seccompFilter(p)
		if err != nil {
			t.Fatal(err)
		}
		vm := filterVM(t, filter)
		data := make([]byte, 64)
		run := func(arch, nr uint32, args [6]uint64) {
			v := runFilter(t, vm, data, arch, nr, args[:])
			if got, want := v, modelDecision(p, arch, nr, args); got != want {
				t.Errorf("%s: system call %d (arch %#x) with %#x: got %#x, want %#x", name, nr, arch, args, got, want)
			}
		}
		for _, nr := range nrs {
			cases := some
			if c, ok := argsFor[nr]; ok {
				cases = c
			}
			for _, args := range cases {
				run(arch, nr, args)
			}
		}
		for _, other := range []uint32{unix.AUDIT_ARCH_I386, unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_AARCH64, unix.AUDIT_ARCH_ARM, 0} {
			if other == arch {
				continue
			}
			for _, nr := range nrs[:512] {
				run(other, nr, some[0])
			}
		}
	}
}

// pathLength is how many instructions filter runs to decide system call
// nr of arch with no argument set. It knows the instructions the filter
// is made of.
func pathLength(t *testing.T, filter []bpf.RawInstruction, arch, nr uint32) int {
	t.Helper()
	ins, ok := bpf.Disassemble(filter)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	var a uint32
	for pc, n := 0, 1; pc < len(ins); n++ {
		in := ins[pc]
		pc++
		switch in := in.(type) {
		case bpf.LoadAbsolute:
			a = map[uint32]uint32{offNr: nr, offArch: arch}[in.Off]
		case bpf.ALUOpConstant:
			if in.Op != bpf.ALUOpAnd {
				t.Fatalf("instruction %d: %v unknown here", pc-1, in)
			}
			a &= in.Val
		case bpf.JumpIf:
			var taken bool
			switch in.Cond {
			case bpf.JumpEqual:
				taken = a == in.Val
			case bpf.JumpNotEqual:
				taken = a != in.Val
			case bpf.JumpGreaterOrEqual:
				taken = a >= in.Val
			case bpf.JumpBitsSet:
				taken = a&in.Val != 0
			default:
				t.Fatalf("instruction %d: %v unknown here", pc-1, in)
			}
			if taken {
				pc += int(in.SkipTrue)
			} else {
				pc += int(in.SkipFalse)
			}
		case bpf.RetConstant:
			return n
		default:
			t.Fatalf("instruction %d: %v unknown here", pc-1, in)
		}
	}
	t.Fatal("the filter ends without returning")
	return 0
}

// TestFilterPathLength wants every system call the filter decides by its
// number alone (read, write, futex, ...: the calls a mod makes for a tool
// call) decided in few instructions: a binary search on the number, not
// a comparison with each number the filter refuses or looks into.
func TestFilterPathLength(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	const most = 12
	for name, p := range modelPolicies() {
		filter, err := seccompFilter(p)
		if err != nil {
			t.Fatal(err)
		}
		longest := 0
		for nr := range uint32(512) {
			n := pathLength(t, filter, arch, nr)
			if n > most && modelDecision(p, arch, nr, [6]uint64{}) == allow && nr != unix.SYS_CLONE &&
				nr != unix.SYS_KILL && nr != unix.SYS_SOCKETPAIR && nr != unix.SYS_SENDTO && nr != unix.SYS_SENDMSG && nr != unix.SYS_SENDMMSG {
				t.Errorf("%s: system call %d: decided in %d instructions, want at most %d", name, nr, n, most)
			}
			longest = max(longest, n)
		}
		t.Logf("%s: %d instructions, every system call decided in at most %d", name, len(filter), longest)
	}
}
