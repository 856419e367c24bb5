package modbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config is the go command's configuration for building one mod.
type Config struct {
	// Key hashes the settings, the module files and the mod's package: a
	// build of the same sources under another Key may differ.
	Key string
	// ModCache is GOMODCACHE: packages in it are named by module version,
	// so go.mod and go.sum stand for their contents.
	ModCache string
	// Flags are the flags the mod's go list and go build add ([BuildFlags]).
	Flags []string
}

// KeyInputs are everything a build configuration's key depends on.
type KeyInputs struct {
	// GoPackage is the mod's import path, which the serving main package
	// imports.
	GoPackage string
	// GoEnv are the go command's settings (go env) of the mod's module.
	GoEnv map[string]string
	// Getenv reads the process environment, for cgo's settings, which go
	// env reports only at the cost of a C compiler lookup.
	Getenv func(string) string
	// ReadFile reads a file named by GoEnv: GOENV's settings, the module's
	// go.mod and go.sum, the workspace's go.work, go.work.sum and its
	// modules' go.mod files.
	ReadFile func(string) ([]byte, error)
}

// Key hashes in: the go env settings, cgo's settings, the go env -w file,
// the main module's go.mod and go.sum, the workspace's go.work and
// go.work.sum and its modules' go.mod files, the serving main package and
// the mod's import path. It reads nothing but in.
func Key(in *KeyInputs) string {
	vars := in.GoEnv
	h := sha256.New()
	fmt.Fprintf(h, "modkit build 4\x00%s\x00%s\x00%s\x00%s\x00", MainFile(in.GoPackage), strings.Join(pureGoTags, ","), strings.Join(leanTags, ","), leanLinkFlags)
	for _, v := range buildVars {
		fmt.Fprintf(h, "%s=%s\x00", v, vars[v])
	}
	for _, v := range cgoVars {
		fmt.Fprintf(h, "%s=%s\x00", v, in.Getenv(v))
	}
	if f := vars["GOENV"]; f != "" && f != "off" {
		hashRead(h, in.ReadFile, f)
	}
	for _, f := range []string{vars["GOMOD"], vars["GOWORK"]} {
		if f == "" || f == os.DevNull || f == "off" {
			continue
		}
		sum := strings.TrimSuffix(f, ".mod") + ".sum"
		if strings.HasSuffix(f, ".work") {
			sum = f + ".sum"
		}
		for _, name := range []string{f, sum} {
			hashRead(h, in.ReadFile, name)
		}
	}
	if f := vars["GOWORK"]; f != "" && f != "off" {
		// The workspace's modules' requirements shape the build list.
		data, err := in.ReadFile(f)
		if err == nil {
			for _, dir := range workspaceModules(f, data) {
				hashRead(h, in.ReadFile, filepath.Join(dir, "go.mod"))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Configure returns the build configuration of the mod in dir whose
// import path is goPackage: Key of the go command's settings for dir, this
// process's environment and the files they name.
func Configure(dir, goPackage string) (*Config, error) { return ConfigureIn("", dir, goPackage) }

// ConfigureIn is Configure for a host whose build cache is at cacheRoot,
// which keeps go env's answers (GoEnvIn).
func ConfigureIn(cacheRoot, dir, goPackage string) (*Config, error) {
	vars, err := GoEnvIn(cacheRoot, dir)
	if err != nil {
		return nil, err
	}
	key := Key(&KeyInputs{GoPackage: goPackage, GoEnv: vars, Getenv: os.Getenv, ReadFile: os.ReadFile})
	return &Config{Key: key, ModCache: vars["GOMODCACHE"], Flags: BuildFlags(vars["GOOS"], vars["GOFLAGS"])}, nil
}
