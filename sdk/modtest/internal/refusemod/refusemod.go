// Package refusemod is a mod whose tools do what its declared permissions
// do not allow, for sdk/modtest's tests of confinement: under a host, and
// under modtest unless Options.Unconfined, each call is refused.
//
// Run go generate after changing the mod.
package refusemod

//go:generate go run github.com/modkit/modkit/cmd/modgen .

import (
	"net"
	"os"

	"github.com/modkit/modkit/sdk"
)

// DialInput names the address refusemod_dial connects to.
type DialInput struct {
	// Address is a TCP host:port.
	Address string `json:"address" jsonschema:"minLength=1"`
}

// WriteInput names the file refusemod_write writes.
type WriteInput struct {
	// Path is an absolute path outside the workspace.
	Path string `json:"path" jsonschema:"minLength=1"`
}

// DeclaredConnect is the one address the mod declares it connects to.
const DeclaredConnect = "127.0.0.1:9"

// Mod is the refusing mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "refusemod",
		DisplayName: "Refused",
		Description: "Tools that do what the mod's permissions do not allow.",
	},
	Permissions: sdk.Permissions{Connect: []string{DeclaredConnect}},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[DialInput]{
			Name:        "refusemod_dial",
			Description: "Connects to a TCP address and closes the connection. Use this when a test checks that an undeclared address is refused.",
			Activity:    "Connecting…",
			Run: func(_ *sdk.ToolContext, in DialInput) (sdk.Result, error) {
				c, err := net.Dial("tcp", in.Address)
				if err != nil {
					return sdk.Result{}, err
				}
				c.Close()
				return sdk.Text("connected to " + in.Address), nil
			},
		},
		sdk.PlainTool[WriteInput]{
			Name:        "refusemod_write",
			Description: "Writes a file. Use this when a test checks that a path outside the workspace is refused.",
			Annotations: &sdk.Annotations{Destructive: true, Idempotent: true, OpenWorld: true},
			Activity:    "Writing…",
			Run: func(_ *sdk.ToolContext, in WriteInput) (sdk.Result, error) {
				if err := os.WriteFile(in.Path, []byte("written"), 0o600); err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text("wrote " + in.Path), nil
			},
		},
	}},
})
