package host

import (
	"debug/buildinfo"
	"fmt"
	"regexp"
	"runtime/debug"

	"github.com/modkit/modkit/internal/protocol"
)

// modkitPath is modkit's module path, as build information names it.
const modkitPath = "github.com/modkit/modkit"

// versionMismatch matches go-plugin's error for a mod that speaks no
// protocol version the host speaks.
var versionMismatch = regexp.MustCompile(`incompatible API version with plugin\. Plugin version: (\d+), Client versions: \[([\d ]*)\]`)

// incompatibleProtocol returns the error of a mod whose handshake offered
// a protocol version the host does not speak, naming both protocol
// versions and the modkit versions each side was built with; nil when err
// is another error.
func incompatibleProtocol(id, bin string, err error) error {
	m := versionMismatch.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	modModkit := "an unknown modkit version"
	if bi, err := buildinfo.ReadFile(bin); err == nil {
		modModkit = modkitVersion(bi)
	}
	hostModkit := "an unknown modkit version"
	if bi, ok := debug.ReadBuildInfo(); ok {
		hostModkit = modkitVersion(bi)
	}
	return fmt.Errorf("start mod %s: incompatible protocol: the mod speaks modkit protocol %s (built with %s), this host speaks protocol %d (built with %s); use a version of the mod built for this host's modkit, or a host whose modkit speaks protocol %s",
		id, m[1], modModkit, protocol.Version, hostModkit, m[1])
}

// modkitVersion returns "github.com/modkit/modkit VERSION" for the modkit a
// binary was built with.
func modkitVersion(bi *debug.BuildInfo) string {
	if bi.Main.Path == modkitPath {
		return modkitPath + " " + bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modkitPath {
			if d.Replace != nil {
				return fmt.Sprintf("%s %s (replaced by %s %s)", modkitPath, d.Version, d.Replace.Path, d.Replace.Version)
			}
			return modkitPath + " " + d.Version
		}
	}
	return "no modkit module"
}
