package build

import (
	"regexp"
	"strconv"

	"github.com/modkit/modkit/internal/modgen/load"
	"github.com/modkit/modkit/manifest"
)

// problemIndex reads the field and index a permissions problem names.
var problemIndex = regexp.MustCompile(`^permissions\.([a-z]+)\[([0-9]+)\]`)

// permissions converts the declared permissions, reporting each bad entry
// at its position, and warns where a tool's annotations contradict them.
func (b *builder) permissions(m *load.Mod) *manifest.Permissions {
	lp := m.Permissions
	if lp == nil {
		b.annotationWarnings(m, nil)
		return nil
	}
	values := func(ss []load.Str) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Value)
		}
		return out
	}
	p := &manifest.Permissions{WriteWorkspace: lp.WriteWorkspace, Connect: values(lp.Connect),
		Run: values(lp.Run), Read: values(lp.Read), Env: values(lp.Env)}
	fields := map[string][]load.Str{"connect": lp.Connect, "run": lp.Run, "read": lp.Read, "env": lp.Env}
	for _, pr := range p.Problems() {
		pos := lp.Pos
		if sm := problemIndex.FindStringSubmatch(pr.Entry); sm != nil {
			if i, err := strconv.Atoi(sm[2]); err == nil && i < len(fields[sm[1]]) {
				pos = fields[sm[1]][i].Pos
			}
		}
		b.errorf(pos, "%s", pr)
	}
	b.annotationWarnings(m, p)
	if p.IsZero() {
		return nil
	}
	return p
}

// annotationWarnings warns about tools whose annotations claim what the
// mod's permissions rule out: a tool of a mod that may change nothing is
// read-only, and one that reaches the open world needs the network or a
// program.
func (b *builder) annotationWarnings(m *load.Mod, p *manifest.Permissions) {
	for _, t := range m.Tools {
		a := t.Annotations
		if a == nil || t.Name.Bad || t.Client && !t.HasRun {
			continue
		}
		pos := t.Pos
		if !a.ReadOnly && !p.Writes() {
			b.warnf(pos, "tool %s: its Annotations say it may change things (ReadOnly false), but the mod declares no permission to write the workspace, connect or run programs: its process cannot; set ReadOnly: true, or declare the Permissions it needs", t.Name.Value)
		}
		if a.OpenWorld && (p == nil || len(p.Connect) == 0 && len(p.Run) == 0) {
			b.warnf(pos, "tool %s: its Annotations say it reaches the open world (OpenWorld true), but the mod declares no network access (Permissions.Connect) and no programs (Permissions.Run)", t.Name.Value)
		}
	}
}
