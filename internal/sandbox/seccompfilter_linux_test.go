package sandbox

import (
	"encoding/binary"
	"runtime"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// decide runs filter on a system call in the BPF virtual machine of
// golang.org/x/net/bpf.
func decide(t *testing.T, filter []bpf.RawInstruction, arch, nr uint32, args ...uint64) uint32 {
	t.Helper()
	return runFilter(t, filterVM(t, filter), make([]byte, 64), arch, nr, args)
}

// filterVM loads filter into golang.org/x/net/bpf's virtual machine.
func filterVM(t *testing.T, filter []bpf.RawInstruction) *bpf.VM {
	t.Helper()
	ins, ok := bpf.Disassemble(filter)
	if !ok {
		t.Fatal("the filter does not disassemble")
	}
	vm, err := bpf.NewVM(ins)
	if err != nil {
		t.Fatal(err)
	}
	return vm
}

// runFilter runs vm on a system call laid out in data, 64 bytes: the VM
// loads words big-endian, so each word is laid out so, at the offset where
// the kernel puts it.
func runFilter(t *testing.T, vm *bpf.VM, data []byte, arch, nr uint32, args []uint64) uint32 {
	t.Helper()
	clear(data)
	binary.BigEndian.PutUint32(data[offNr:], nr)
	binary.BigEndian.PutUint32(data[offArch:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(data[argLow(uint32(i)):], uint32(a))
		binary.BigEndian.PutUint32(data[argLow(uint32(i))+4:], uint32(a>>32))
	}
	v, err := vm.Run(data)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(v)
}

// TestFilterDecisions checks what no process of the tests can make: a
// foreign architecture, the x32 ABI, and arguments whose high bits carry
// junk, which the filter must ignore as the kernel does.
func TestFilterDecisions(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	filter, err := seccompFilter(&Policy{})
	if err != nil {
		t.Fatal(err)
	}
	const junk = 0xdead_beef << 32
	for _, tt := range []struct {
		name     string
		arch, nr uint32
		args     []uint64
		want     uint32
	}{
		{"read", arch, unix.SYS_READ, nil, allow},
		{"read of another architecture", unix.AUDIT_ARCH_I386, 3, nil, eperm},
		{"ptrace", arch, unix.SYS_PTRACE, nil, eperm},
		{"clone3", arch, unix.SYS_CLONE3, nil, enosys},
		{"connect without network", arch, unix.SYS_CONNECT, nil, eacces},
		{"unix stream socket, junk above", arch, unix.SYS_SOCKET, []uint64{junk | unix.AF_UNIX, junk | unix.SOCK_STREAM}, allow},
		{"packet socket, junk above", arch, unix.SYS_SOCKET, []uint64{junk | unix.AF_PACKET, unix.SOCK_RAW}, eacces},
		{"inet socket without network, junk above", arch, unix.SYS_SOCKET, []uint64{junk | unix.AF_INET, unix.SOCK_STREAM}, eacces},
		{"kill(-1), junk above", arch, unix.SYS_KILL, []uint64{junk | 0xffff_ffff}, eperm},
		{"kill(0), junk above", arch, unix.SYS_KILL, []uint64{junk}, eperm},
		{"kill(pid)", arch, unix.SYS_KILL, []uint64{4242}, allow},
		{"clone of a thread", arch, unix.SYS_CLONE, []uint64{unix.CLONE_VM | unix.CLONE_THREAD}, allow},
		{"clone into a new network", arch, unix.SYS_CLONE, []uint64{unix.CLONE_NEWNET}, eperm},
	} {
		if got := decide(t, filter, tt.arch, tt.nr, tt.args...); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
	if arch == unix.AUDIT_ARCH_X86_64 {
		if got := decide(t, filter, arch, x32Bit|unix.SYS_READ); got != eperm {
			t.Errorf("read of the x32 ABI: got %#x, want %#x", got, eperm)
		}
	}
}

// BenchmarkFilter measures a system call on a thread with and without the
// filter of a mod without network: getppid, whose verdict the kernel
// caches, and kill(self, 0), which the filter runs whole to read the pid.
//
//	go test -run '^$' -bench Filter ./internal/sandbox
func BenchmarkFilter(b *testing.B) {
	filter, err := seccompFilter(&Policy{})
	if err != nil {
		b.Fatal(err)
	}
	pid := uintptr(unix.Getpid())
	for _, call := range []struct {
		name string
		nr   uintptr
		args [2]uintptr
	}{{"getppid", unix.SYS_GETPPID, [2]uintptr{}}, {"kill_self", unix.SYS_KILL, [2]uintptr{pid, 0}}} {
		for _, filtered := range []bool{false, true} {
			name := call.name + "/unfiltered"
			if filtered {
				name = call.name + "/filtered"
			}
			b.Run(name, func(b *testing.B) {
				errc := make(chan error, 1)
				go func() {
					// The thread is filtered for good: it returns locked,
					// so the runtime ends it.
					runtime.LockOSThread()
					if filtered {
						if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
							errc <- err
							return
						}
						if _, err := installFilter(filter, false); err != nil {
							errc <- err
							return
						}
					}
					b.ResetTimer()
					for range b.N {
						if _, _, errno := unix.RawSyscall(call.nr, call.args[0], call.args[1], 0); errno != 0 {
							errc <- errno
							return
						}
					}
					b.StopTimer()
					errc <- nil
				}()
				if err := <-errc; err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// TestFilterConnectDecisions runs the filter of a mod whose connects the
// host checks, and of one that declares ports alone: connect notifies the
// host only for the first; TCP Fast Open is refused to both, junk above
// the flags or not; plain sends pass.
func TestFilterConnectDecisions(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	const junk = 0xdead_beef << 32
	checked := &Policy{Connect: []string{"db.internal:5432"}, ConnectPorts: []uint16{5432}, CheckHosts: true, Seccomp: true}
	byPort := &Policy{Connect: []string{"db.internal:5432"}, ConnectPorts: []uint16{5432}, Seccomp: true}
	anywhere := &Policy{ConnectAny: true, CheckHosts: true, Seccomp: true}
	for _, tt := range []struct {
		name   string
		policy *Policy
		nr     uint32
		args   []uint64
		want   uint32
	}{
		{"connect, checked", checked, unix.SYS_CONNECT, nil, notify},
		{"connect, by port", byPort, unix.SYS_CONNECT, nil, allow},
		{"connect, anywhere", anywhere, unix.SYS_CONNECT, nil, allow},
		{"sendto with MSG_FASTOPEN", checked, unix.SYS_SENDTO, []uint64{3, 0, 1, junk | unix.MSG_FASTOPEN}, eacces},
		{"sendmmsg with MSG_FASTOPEN", byPort, unix.SYS_SENDMMSG, []uint64{3, 0, 1, unix.MSG_FASTOPEN | unix.MSG_NOSIGNAL}, eacces},
		{"sendmsg with MSG_FASTOPEN", checked, unix.SYS_SENDMSG, []uint64{3, 0, junk | unix.MSG_FASTOPEN}, eacces},
		{"sendmsg", checked, unix.SYS_SENDMSG, []uint64{3, 0, unix.MSG_NOSIGNAL}, allow},
		{"sendto", byPort, unix.SYS_SENDTO, []uint64{3, 0, 1, 0}, allow},
		{"sendto with MSG_FASTOPEN, anywhere", anywhere, unix.SYS_SENDTO, []uint64{3, 0, 1, unix.MSG_FASTOPEN}, allow},
	} {
		filter, err := seccompFilter(tt.policy)
		if err != nil {
			t.Fatal(err)
		}
		if got := decide(t, filter, arch, tt.nr, tt.args...); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}
