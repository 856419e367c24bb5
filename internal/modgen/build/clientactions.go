package build

import (
	"encoding/json"
	"go/types"

	"github.com/modkit/modkit/internal/modgen/codegen"
	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/internal/modgen/schema"
	"github.com/modkit/modkit/manifest"
)

// clientActions checks the kinds of client action m's tools list and
// derives each kind's params schema with gen, once per kind, in the order
// the tools first list them. A kind may be listed by several tools; two
// literals that give one kind different params types or descriptions are
// an error.
func (b *builder) clientActions(m *load.Mod, gen *schema.Generator, ds decls) ([]manifest.ClientActionKind, []codegen.ClientAction) {
	var kinds []manifest.ClientActionKind
	var checks []codegen.ClientAction
	first := map[string]load.ClientActionKind{}
	for _, t := range m.Tools {
		for _, k := range t.ClientActions {
			name := k.Kind.Value
			if k.Kind.Bad || k.Description.Bad {
				continue
			}
			if f, seen := first[name]; seen {
				switch {
				case !types.Identical(f.Params, k.Params):
					b.errorf(k.Pos, "client action kind %q is declared with params %s here and %s at %s: declare each kind once",
						name, b.typeString(k.Params), b.typeString(f.Params), b.short(f.Pos))
				case f.Description.Value != k.Description.Value:
					b.errorf(k.Description.Pos, "client action kind %q has another description at %s: declare each kind once", name, b.short(f.Pos))
				default:
					continue
				}
				ds.reported("tools", "clientActions", k.Ref)
				continue
			}
			first[name] = k
			// The kind is recorded even when the rulebook will refuse its
			// name, so the tools that list it name a declared kind.
			mk := manifest.ClientActionKind{Kind: name, Description: k.Description.Value, ParamsSchema: json.RawMessage(`{"type":"object"}`)}
			if _, ok := types.Unalias(k.Params).Underlying().(*types.Struct); !ok {
				b.errorf(k.Pos, "client action kind %s: params type %s must be a struct, so the params are a JSON object", name, b.typeString(k.Params))
			} else {
				s := gen.Root(k.Params, k.Pos)
				mk.ParamsSchema = mustJSON(s)
				checks = append(checks, codegen.ClientAction{Kind: name, Params: k.Params, Schema: s})
			}
			kinds = append(kinds, mk)
			ds.add("clientActions", decl{noun: "client action kind", name: name, pos: k.Pos,
				fields: map[string]load.Str{"kind": k.Kind, "description": k.Description}})
		}
	}
	return kinds, checks
}

// clientActionNames returns the kinds t lists, in order.
func clientActionNames(t load.Tool) []string {
	var names []string
	for _, k := range t.ClientActions {
		names = append(names, k.Kind.Value)
	}
	return names
}

func (b *builder) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(b.pkg.Types))
}
