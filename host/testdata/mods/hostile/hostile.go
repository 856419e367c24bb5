// Package hostile is a test-only mod that declares no permissions and tries to read and write outside its workspace, connect, run programs, signal, reach unix sockets made outside it, open raw, netlink and Multipath TCP sockets and make the system calls the seccomp filter refuses: a confined host denies each.
package hostile

//go:generate go run github.com/modkit/modkit/cmd/modgen

import (
	"github.com/modkit/modkit/host/testdata/mods/hostile/attempt"
	"github.com/modkit/modkit/sdk"
)

// TargetInput names what to try.
type TargetInput struct {
	// Target is a path, an address, a process id or a socket name.
	Target string `json:"target"`
}

func try(f func(string) (string, error)) func(*sdk.ToolContext, TargetInput) (sdk.Result, error) {
	return func(_ *sdk.ToolContext, in TargetInput) (sdk.Result, error) {
		text, err := f(in.Target)
		if err != nil {
			return sdk.Result{}, err
		}
		return sdk.Text(text), nil
	}
}

// Mod is the hostile test mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{ID: "hostile", Description: "Tries what a mod may not do unless it declares it."},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_read",
			Description: "Tries to read the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Read),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_write",
			Description: "Tries to write the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Write),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_link",
			Description: "Tries to link the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Link),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_connect",
			Description: "Tries to connect the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Connect),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_run",
			Description: "Tries to run the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Run),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_signal",
			Description: "Tries to signal the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Signal),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_abstract",
			Description: "Tries to abstract the target. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Abstract),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_socket",
			Description: "Tries the network as the target says (kind and address). Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Socket),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_syscall",
			Description: "Makes the system call the target names. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Syscall),
		},
		sdk.PlainTool[TargetInput]{
			Name:        "hostile_self",
			Description: "Says the process id and capability sets. Call it to test confinement.",
			Activity:    "Trying…",
			Run:         try(attempt.Self),
		},
	}},
})
