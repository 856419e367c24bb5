package modbuild

import (
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// ModuleInputs are the inputs of a build that failed before the go command
// listed the packages, loading the module (go.mod needs updates, say): the
// mod's package directory, its module's go.mod, go.sum and go.work files,
// and the go.mod of every directory that go.mod replaces a module with. A
// record of such a failure holds until one of them changes.
func ModuleInputs(dir string) []Input {
	inputs := []Input{{Dir: dir, Files: buildFiles(dir)}}
	root := moduleRoot(dir)
	if root == "" {
		return inputs
	}
	inputs = append(inputs, Input{Dir: root, Files: []string{"go.mod", "go.sum", "go.work", "go.work.sum"}})
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return inputs
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return inputs
	}
	for _, r := range f.Replace {
		if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) {
			continue
		}
		d := r.New.Path
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		inputs = append(inputs, Input{Dir: d, Files: []string{"go.mod"}})
	}
	return inputs
}

// buildFiles returns the names in dir that go build may read.
func buildFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if buildName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	return names
}

// HostTool is the package of modkit's host command: a module listing it as
// a tool requires, once tidy, every module the mod's serving code imports.
const HostTool = "github.com/modkit/modkit/cmd/modhost"

// RequiresServing reports whether go mod tidy keeps, in the module of the
// mod in dir, the requirements of the serving code the host builds the mod
// with: the module is modkit, or lists HostTool as a tool. A module that
// cannot be read is taken to.
func RequiresServing(dir string) bool {
	root := moduleRoot(dir)
	if root == "" {
		return true
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return true
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil || f.Module == nil || f.Module.Mod.Path == "github.com/modkit/modkit" {
		return true
	}
	for _, t := range f.Tool {
		if t.Path == HostTool {
			return true
		}
	}
	return false
}
