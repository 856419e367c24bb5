package build

import (
	"errors"
	"go/token"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// decl is the source behind one manifest entry: what to call it, where
// its literal is and where its fields are, so a manifest problem is
// reported at the literal that causes it.
type decl struct {
	noun string // "tool", "command", …
	name string
	pos  token.Pos
	// fields are the entry's fields by their manifest name, like "title".
	fields map[string]load.Str
	// items are the elements of the entry's list fields, like "arguments".
	items map[string][]load.Str
}

// decls holds the declarations behind the manifest's lists, in the
// manifest's order: decls["tools"][i] made manifest.Tools[i].
type decls map[string][]decl

func (d decls) add(list string, e decl) { d[list] = append(d[list], e) }

// rulebook runs manifest.Validate, which holds every rule about a mod's
// declarations, on the manifest built from m, and reports each problem at
// the declaration that breaks the rule. Problems with what modgen writes
// itself are modgen bugs, reported at the DefineMod call.
func (b *builder) rulebook(m *load.Mod, mf *manifest.Manifest, ds decls) {
	var me *manifest.Error
	if err := manifest.Validate(mf); !errors.As(err, &me) {
		return
	}
	// Problems with what modgen writes follow from errors already
	// reported, or are modgen bugs.
	bug := !b.failed()
	for _, p := range me.Problems {
		if p.Rule == "" {
			if !bug {
				continue
			}
			b.errorf(m.Pos, "modgen wrote a manifest the host refuses (a modgen bug): %s", p)
			continue
		}
		if p.At.List == "" {
			pos := m.IDPos
			if pos == token.NoPos {
				pos = m.Pos
			}
			b.errorf(pos, "mod %s: %s", p.At.Field, p.Message)
			continue
		}
		list := ds[p.At.List]
		if p.At.Index >= len(list) { // cannot happen: decls parallel the lists
			b.errorf(m.Pos, "%s", p)
			continue
		}
		d := list[p.At.Index]
		pos := d.pos
		var at load.Str
		if p.At.Item >= 0 {
			if items := d.items[p.At.Field]; p.At.Item < len(items) {
				at = items[p.At.Item]
			}
		} else {
			at = d.fields[p.At.Field]
		}
		if at.Bad {
			continue // not a constant: already reported
		}
		if at.Pos.IsValid() {
			pos = at.Pos
		}
		msg := p.Message
		if p.First != "" {
			msg += ", first at " + b.short(ds.pos(p.FirstAt))
		}
		b.errorf(pos, "%s%s: %s", d.noun, quoted(d.name), msg)
	}
}

// reported marks the items of list's field at pos as already reported.
func (d decls) reported(list, field string, pos token.Pos) {
	for _, e := range d[list] {
		for i := range e.items[field] {
			if e.items[field][i].Pos == pos {
				e.items[field][i].Bad = true
			}
		}
	}
}

// pos returns where the declaration at loc is.
func (d decls) pos(loc manifest.Location) token.Pos {
	list := d[loc.List]
	if loc.Index >= len(list) {
		return token.NoPos
	}
	e := list[loc.Index]
	if f := e.fields[loc.Field]; f.Pos.IsValid() {
		return f.Pos
	}
	return e.pos
}

func quoted(name string) string {
	if name == "" {
		return ""
	}
	return sprintf(" %q", name)
}
