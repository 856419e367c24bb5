package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Docs finds the doc comments of types and struct fields by position. It
// uses the syntax trees it is given and parses other files on demand, so
// types from packages loaded as export data are described too.
type Docs struct {
	fset  *token.FileSet
	files map[string]map[posKey]string // file name → position → doc
}

type posKey struct{ line, col int }

// NewDocs returns a Docs over fset, seeded with already parsed files.
func NewDocs(fset *token.FileSet, files []*ast.File) *Docs {
	d := &Docs{fset: fset, files: map[string]map[posKey]string{}}
	for _, f := range files {
		name := fset.Position(f.Pos()).Filename
		d.files[name] = d.index(fset, f)
	}
	return d
}

// At returns the doc comment of the type or field declared at pos.
func (d *Docs) At(pos token.Pos) string {
	if d == nil || !pos.IsValid() {
		return ""
	}
	p := d.fset.Position(pos)
	idx, ok := d.files[p.Filename]
	if !ok {
		idx = map[posKey]string{}
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, p.Filename, nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
			idx = d.index(fset, f)
		}
		d.files[p.Filename] = idx
	}
	return idx[posKey{p.Line, p.Column}]
}

func (d *Docs) index(fset *token.FileSet, f *ast.File) map[posKey]string {
	idx := map[posKey]string{}
	add := func(id *ast.Ident, groups ...*ast.CommentGroup) {
		for _, g := range groups {
			if text := dropName(cleanDoc(g), id.Name); text != "" {
				p := fset.Position(id.Pos())
				idx[posKey{p.Line, p.Column}] = text
				return
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok != token.TYPE {
				return true
			}
			for _, spec := range n.Specs {
				ts := spec.(*ast.TypeSpec)
				if len(n.Specs) == 1 {
					add(ts.Name, ts.Doc, n.Doc, ts.Comment)
				} else {
					add(ts.Name, ts.Doc, ts.Comment)
				}
			}
		case *ast.Field:
			for _, name := range n.Names {
				add(name, n.Doc, n.Comment)
			}
			if len(n.Names) == 0 {
				// Embedded: the type expression's identifier is the field.
				t := n.Type
				if st, ok := t.(*ast.StarExpr); ok {
					t = st.X
				}
				if ix, ok := t.(*ast.IndexExpr); ok {
					t = ix.X
				}
				if ix, ok := t.(*ast.IndexListExpr); ok {
					t = ix.X
				}
				switch t := t.(type) {
				case *ast.Ident:
					add(t, n.Doc, n.Comment)
				case *ast.SelectorExpr:
					add(t.Sel, n.Doc, n.Comment)
				}
			}
		}
		return true
	})
	return idx
}

// dropName removes the Go identifier a doc comment starts with, by Go
// convention, so the description speaks of the thing rather than its Go
// name, when what is left reads as written English: "Query is the text to
// find." becomes "The text to find.", "Limit caps the hits." becomes "Caps
// the hits.". A verb that needs its subject keeps it: "Options tune the
// scan." and "Rows describe each row" stay as written, as does a sentence
// that would start with a code name ("X is notes_list's input.").
func dropName(doc, name string) string {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok {
		return doc
	}
	verb, after, _ := strings.Cut(rest, " ")
	switch {
	case verb == "is" || verb == "are":
		rest = after
	case adverb(verb):
		// "Transitive also lists …": the verb is the next word.
		if next, _, _ := strings.Cut(after, " "); !singularVerb(next) {
			return doc
		}
	case !singularVerb(verb):
		return doc
	}
	first, _, _ := strings.Cut(rest, " ")
	if rest == "" || codeName(first) {
		return doc
	}
	r, size := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[size:]
}

// singularVerb reports whether word reads as a verb in the third person
// singular ("caps", "says", "holds"), with which a sentence can start once
// its subject is gone; a plural one ("tune", "describe") cannot.
func singularVerb(word string) bool {
	word = strings.TrimRight(word, ".,;:")
	if len(word) < 3 || word != strings.ToLower(word) {
		return false
	}
	return strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") && !strings.HasSuffix(word, "us")
}

// adverb reports whether word is an adverb that may stand between a
// subject and its verb ("also", "only", "quietly").
func adverb(word string) bool {
	switch word {
	case "also", "only", "always", "never", "still", "often", "then", "first", "now":
		return true
	}
	return len(word) > 4 && strings.HasSuffix(word, "ly")
}

// codeName reports whether word, lower-case first, is a name from code
// (a tool's name, a field, a package's member), which a capital letter
// would misspell.
func codeName(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsLower(r) {
		return false
	}
	word = strings.TrimSuffix(strings.TrimRight(word, ".,;:"), "'s")
	return strings.ContainsAny(word, "_.") || strings.ToLower(word) != word
}

// cleanDoc returns a comment's text for a description: the lines of a
// paragraph joined by spaces, paragraphs apart by a blank line, directives
// dropped.
func cleanDoc(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	var paras []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			paras = append(paras, strings.Join(para, " "))
			para = nil
		}
	}
	for _, l := range strings.Split(g.Text(), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "go:") || strings.HasPrefix(l, "+"):
		case l == "":
			flush()
		default:
			para = append(para, l)
		}
	}
	flush()
	return strings.Join(paras, "\n\n")
}
