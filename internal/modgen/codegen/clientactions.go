package codegen

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/modkit/modkit/internal/modgen/schema"
)

// ClientAction is one kind of client action whose params get a check.
type ClientAction struct {
	// Kind is the kind's name.
	Kind string
	// Params is the Go params type.
	Params types.Type
	// Schema is the params' root schema, with its $defs.
	Schema *schema.Schema
}

// actionName is the name of the generated check of a kind's params.
func actionName(kind string) string { return "modkitAction" + ident(kind) }

// actionChecks returns the Generated.ClientActions entry, or nil when the
// mod declares no kinds.
func actionChecks(actions []ClientAction) jen.Dict {
	if len(actions) == 0 {
		return nil
	}
	checks := jen.Dict{}
	for _, a := range actions {
		checks[jen.Lit(a.Kind)] = jen.Id(actionName(a.Kind))
	}
	return jen.Dict{jen.Id("ClientActions"): jen.Map(jen.String()).Qual(sdkPath, "ParamsCheck").Values(checks)}
}

// actionFuncs emits the check of each kind's params.
func (g *gen) actionFuncs(actions []ClientAction) {
	for _, a := range actions {
		body := []jen.Code{
			jen.Id("c").Op(":=").Qual(checkPath, "New").Call(jen.Id("data")),
			jen.Defer().Id("c").Dot("Release").Call(),
		}
		body = append(body, g.root(a.Schema)...)
		body = append(body,
			jen.Id("c").Dot("End").Call(),
			jen.Return(jen.Id("c").Dot("Err").Call()),
		)
		g.f.Line()
		g.f.Commentf("%s checks the params of client action %q.", actionName(a.Kind), a.Kind)
		g.f.Func().Id(actionName(a.Kind)).Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	}
}
