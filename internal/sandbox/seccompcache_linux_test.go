package sandbox

import (
	"slices"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// kernelCaches reports whether Linux (5.11 and later) caches "allow" for
// system call nr of arch under filter, so that the call never runs it:
// the kernel's seccomp_is_const_allow, which emulates the filter with
// only the number and the architecture known and gives up at a load of
// anything else (an argument, the instruction pointer) or an instruction
// it does not emulate.
func kernelCaches(filter []bpf.RawInstruction, arch, nr uint32) bool {
	const (
		ldAbsW = 0x20 // BPF_LD | BPF_W | BPF_ABS
		retK   = 0x06 // BPF_RET | BPF_K
		ja     = 0x05 // BPF_JMP | BPF_JA
		jeqK   = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
		jgtK   = 0x25
		jgeK   = 0x35
		jsetK  = 0x45
		andK   = 0x54 // BPF_ALU | BPF_AND | BPF_K
	)
	var a uint32
	for pc := 0; pc < len(filter); pc++ {
		in := filter[pc]
		switch in.Op {
		case ldAbsW:
			switch in.K {
			case offNr:
				a = nr
			case offArch:
				a = arch
			default:
				return false
			}
		case retK:
			return in.K == allow
		case ja:
			pc += int(in.K)
		case jeqK, jgtK, jgeK, jsetK:
			var taken bool
			switch in.Op {
			case jeqK:
				taken = a == in.K
			case jgtK:
				taken = a > in.K
			case jgeK:
				taken = a >= in.K
			case jsetK:
				taken = a&in.K != 0
			}
			if taken {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case andK:
			a &= in.K
		default:
			return false
		}
	}
	return false
}

// argumentRead are the system calls whose arguments modelDecision reads.
var argumentRead = []uint32{unix.SYS_CLONE, unix.SYS_KILL, unix.SYS_SOCKET, unix.SYS_SOCKETPAIR,
	unix.SYS_SENDTO, unix.SYS_SENDMSG, unix.SYS_SENDMMSG}

// TestFilterCached wants every system call the filter allows by its number
// alone cached by the kernel, which then runs no filter for it: the calls
// of a tool call first (the lane's reads and writes, the runtime's futex,
// epoll_pwait, nanosleep, sched_yield, tgkill, madvise, mmap), and every
// other one, so that no change to the filter puts an argument's load, or
// anything the kernel does not emulate, in their path.
func TestFilterCached(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	hot := []uint32{unix.SYS_READ, unix.SYS_WRITE, unix.SYS_FUTEX, unix.SYS_EPOLL_PWAIT, unix.SYS_NANOSLEEP,
		unix.SYS_SCHED_YIELD, unix.SYS_GETPID, unix.SYS_GETTID, unix.SYS_TGKILL, unix.SYS_MADVISE, unix.SYS_MMAP,
		unix.SYS_MUNMAP, unix.SYS_RT_SIGRETURN, unix.SYS_RT_SIGPROCMASK, unix.SYS_SIGALTSTACK, unix.SYS_CLOCK_GETTIME}
	all := modelArgs()
	for name, p := range modelPolicies() {
		filter, err := seccompFilter(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, nr := range hot {
			if !kernelCaches(filter, arch, nr) {
				t.Errorf("%s: system call %d: got the filter run at each call, want its allow cached", name, nr)
			}
		}
		cached := 0
		for nr := range uint32(512) {
			// Allowed whatever the arguments, by the model.
			byNumber, lists := true, [][6]uint64{{}}
			if slices.Contains(argumentRead, nr) {
				lists = all
			}
			for _, args := range lists {
				byNumber = byNumber && modelDecision(p, arch, nr, args) == allow
			}
			got := kernelCaches(filter, arch, nr)
			if got != byNumber {
				t.Errorf("%s: system call %d: got cached %v, want %v", name, nr, got, byNumber)
			}
			if got {
				cached++
			}
		}
		t.Logf("%s: %d of 512 system call numbers cached", name, cached)
	}
}

// TestKernelCaches checks kernelCaches on filters whose caching is known:
// a load of an argument anywhere on a call's path keeps it out of the
// cache, and so does a refusal.
func TestKernelCaches(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no filter for this architecture")
	}
	for _, tt := range []struct {
		name   string
		filter []bpf.Instruction
		nr     uint32
		want   bool
	}{
		{"allow all", []bpf.Instruction{bpf.RetConstant{Val: allow}}, unix.SYS_READ, true},
		{"an argument first", []bpf.Instruction{bpf.LoadAbsolute{Off: argLow(0), Size: 4}, bpf.RetConstant{Val: allow}}, unix.SYS_READ, false},
		{"the instruction pointer", []bpf.Instruction{bpf.LoadAbsolute{Off: 8, Size: 4}, bpf.RetConstant{Val: allow}}, unix.SYS_READ, false},
		{"read allowed by number", byNumber(unix.SYS_READ), unix.SYS_READ, true},
		{"write refused by number", byNumber(unix.SYS_READ), unix.SYS_WRITE, false},
		{"architecture, then number", []bpf.Instruction{
			bpf.LoadAbsolute{Off: offArch, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: arch, SkipTrue: 3},
			bpf.LoadAbsolute{Off: offNr, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: unix.SYS_WRITE, SkipTrue: 1},
			bpf.RetConstant{Val: allow},
			bpf.RetConstant{Val: eperm},
		}, unix.SYS_READ, true},
	} {
		raw, err := bpf.Assemble(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := kernelCaches(raw, arch, tt.nr); got != tt.want {
			t.Errorf("%s: got cached %v, want %v", tt.name, got, tt.want)
		}
	}
}

// byNumber is a filter that allows system call nr and refuses the rest,
// reading the number only.
func byNumber(nr uint32) []bpf.Instruction {
	return []bpf.Instruction{
		bpf.LoadAbsolute{Off: offNr, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipFalse: 1},
		bpf.RetConstant{Val: allow},
		bpf.RetConstant{Val: eperm},
	}
}
