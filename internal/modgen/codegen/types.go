package codegen

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"
)

// typeCode returns Go source naming t from the generated file's package.
func (g *gen) typeCode(t types.Type) (jen.Code, error) {
	switch t := t.(type) {
	case *types.Alias:
		return g.typeCode(types.Unalias(t))
	case *types.Named:
		obj := t.Obj()
		var st *jen.Statement
		switch {
		case obj.Pkg() == nil:
			st = jen.Id(obj.Name())
		case obj.Pkg().Path() == g.pkgPath:
			st = jen.Id(obj.Name())
		case !obj.Exported():
			return nil, fmt.Errorf("type %s is not exported from %s", obj.Name(), obj.Pkg().Path())
		default:
			st = jen.Qual(obj.Pkg().Path(), obj.Name())
		}
		if args := t.TypeArgs(); args.Len() > 0 {
			var list []jen.Code
			for a := range args.Types() {
				c, err := g.typeCode(a)
				if err != nil {
					return nil, err
				}
				list = append(list, c)
			}
			st = st.Index(list...)
		}
		return st, nil
	case *types.Basic:
		return jen.Id(t.Name()), nil
	case *types.Pointer:
		e, err := g.typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Op("*").Add(e), nil
	case *types.Slice:
		e, err := g.typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Index().Add(e), nil
	case *types.Array:
		e, err := g.typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Index(jen.Lit(int(t.Len()))).Add(e), nil
	case *types.Map:
		k, err := g.typeCode(t.Key())
		if err != nil {
			return nil, err
		}
		v, err := g.typeCode(t.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Map(k).Add(v), nil
	case *types.Interface:
		if t.Empty() {
			return jen.Any(), nil
		}
	case *types.Struct:
		var fields []jen.Code
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			ft, err := g.typeCode(f.Type())
			if err != nil {
				return nil, err
			}
			var st *jen.Statement
			if f.Embedded() {
				st = jen.Add(ft)
			} else {
				st = jen.Id(f.Name()).Add(ft)
			}
			if tag := t.Tag(i); tag != "" {
				st = st.Op("`" + tag + "`")
			}
			fields = append(fields, st)
		}
		return jen.Struct(fields...), nil
	}
	return nil, fmt.Errorf("cannot name type %s in generated code", t)
}
