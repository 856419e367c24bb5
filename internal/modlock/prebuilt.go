package modlock

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modkit/modkit/internal/modbuild"
)

// ResolvePrebuilt returns the directories of the locked mods in the
// prebuilt cache at root, whose index is idx, without the go command: the
// copies of their modules modhost build made there, each checked against
// its entry (the files' hash and the manifest's). A mod the cache holds at
// another version, or not at all, is an error that says to run modhost
// build again.
func ResolvePrebuilt(entries []Entry, root string, idx *modbuild.Index) ([]string, error) {
	dirs := make([]string, 0, len(entries))
	for _, e := range entries {
		again := fmt.Sprintf("; run modhost build -o %s again with this mods.lock (a prebuilt cache is never built into)", root)
		var p *modbuild.Prebuilt
		var versions []string
		for i, m := range idx.Mods {
			if m.GoPackage == e.Mod && m.Module == e.Module {
				if m.Version == e.Version {
					p = &idx.Mods[i]
				}
				versions = append(versions, m.Version)
			}
		}
		switch {
		case p == nil && len(versions) > 0:
			return nil, fmt.Errorf("mods.lock pins %s, and the prebuilt cache %s holds %s %s%s", e.String(), root, e.Module, strings.Join(versions, ", "), again)
		case p == nil:
			return nil, fmt.Errorf("mods.lock pins %s, and the prebuilt cache %s holds no build of it%s", e.String(), root, again)
		}
		dir := filepath.Join(root, filepath.FromSlash(p.Dir))
		module := p.Dir
		if rel := e.Rel(); rel != "" {
			module = strings.TrimSuffix(module, "/"+rel)
		}
		module = filepath.Join(root, filepath.FromSlash(module))
		if !copyGood(e, module) {
			return nil, fmt.Errorf("%s: its copy %s in the prebuilt cache does not hash to %s, as mods.lock has it%s", e.String(), module, e.Zip, again)
		}
		if got, err := manifestSum(dir); err != nil {
			return nil, fmt.Errorf("%s: %v%s", e.String(), err, again)
		} else if got != e.Manifest {
			return nil, &MismatchError{Entry: e, What: "manifest", Where: "in the prebuilt cache (" + dir + ")", Got: got, Want: e.Manifest}
		}
		dirs = append(dirs, dir)
	}
	return dirs, nil
}
