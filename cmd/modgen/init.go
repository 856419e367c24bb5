package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"golang.org/x/mod/modfile"
)

// runInit writes a new mod package into a directory: modgen init [DIR].
func runInit(args []string, stdout io.Writer) error {
	if len(args) > 1 {
		return fmt.Errorf("%w: init takes at most one directory", errUsage)
	}
	dir := "."
	if len(args) == 1 {
		dir = args[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if gofiles, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(gofiles) > 0 {
		return fmt.Errorf("init: %s already holds Go files (%s); init writes a new mod into a directory without any", dir, filepath.Base(gofiles[0]))
	}
	last := lastElement(abs)
	name := packageName(last)
	if name == "" {
		return fmt.Errorf("init: cannot make a package name of %q: name the directory with a lower-case letter first, then letters and digits", last)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	files := []struct{ name, tmpl string }{
		{name + ".go", modTemplate},
		{name + "_test.go", testTemplate},
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := template.Must(template.New(f.name).Parse(f.tmpl)).Execute(&buf, map[string]string{"Name": name}); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(dir, f.name))
	}
	fmt.Fprintf(stdout, "next: go generate ./... && go test ./... && go tool modhost --mods %s call %s_greet '{\"name\":\"Ada\"}'\n", dir, name)
	return nil
}

// lastElement returns the last element of the import path of a package
// in the directory abs: its module's path joined with the directory's
// place in the module, without a major version suffix (/v2); outside a
// module, the directory's name.
func lastElement(abs string) string {
	for dir := abs; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			mod := modfile.ModulePath(data)
			rel, err := filepath.Rel(dir, abs)
			if mod == "" || err != nil {
				break
			}
			elems := strings.Split(path.Join(mod, filepath.ToSlash(rel)), "/")
			last := elems[len(elems)-1]
			if len(elems) > 1 && majorVersion.MatchString(last) {
				last = elems[len(elems)-2]
			}
			return last
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return filepath.Base(abs)
}

// majorVersion is a major version suffix of a module path.
var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// packageName makes a Go package name and mod id of a directory name: its
// lower-cased letters and digits, starting with a letter; "" when none.
func packageName(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

const modTemplate = `// Package {{.Name}} is a modkit mod: its tools are what a model can call.
package {{.Name}}

//go:generate go tool modgen

import (
	"fmt"

	"github.com/modkit/modkit/sdk"
)

// GreetInput says whom {{.Name}}_greet greets.
type GreetInput struct {
	// Name is the person to greet.
	Name string ` + "`" + `json:"name" jsonschema:"minLength=1,maxLength=100"` + "`" + `
}

// Mod is the {{.Name}} mod.
var Mod = sdk.DefineMod(sdk.Mod{
	Metadata: sdk.Metadata{
		ID:          "{{.Name}}",
		DisplayName: "{{.Name}}",
		Description: "Greets people.",
	},
	AI: sdk.AI{Tools: []sdk.Tool{
		sdk.PlainTool[GreetInput]{
			Name:        "{{.Name}}_greet",
			Description: "Greets a person by name. Call this when you are asked to say hello to someone.",
			Activity:    "Greeting…",
			Run:         greet,
		},
	}},
})

func greet(tc *sdk.ToolContext, in GreetInput) (sdk.Result, error) {
	return sdk.Text(fmt.Sprintf("Hello, %s!", in.Name)), nil
}
`

const testTemplate = `package {{.Name}}

import (
	"testing"

	"github.com/modkit/modkit/sdk/modtest"
)

func TestGreet(t *testing.T) {
	out := modtest.Run(t, Modkit(), "{{.Name}}_greet", ` + "`" + `{"name": "Ada"}` + "`" + `, nil)
	if want := "Hello, Ada!"; out.Status != modtest.StatusCompleted || out.Text != want {
		t.Errorf("got %s %q, want completed %q", out.Status, out.Text, want)
	}
}

func TestGreetNeedsAName(t *testing.T) {
	out := modtest.Run(t, Modkit(), "{{.Name}}_greet", ` + "`" + `{"name": ""}` + "`" + `, nil)
	if out.Status != modtest.StatusFailed {
		t.Errorf("got %s %q, want failed", out.Status, out.Text)
	}
}
`
