package codegen

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/modkit/modkit/internal/modgen/schema"
)

// The fill functions decode input the validator accepted straight into the
// Go value, in a second pass over the bytes, without reflection. Values of
// types with no direct decoding here (any, json.RawMessage, []byte, arrays,
// maps with non-string keys) are handed to encoding/json one value at a
// time.

// fillFuncs tracks the fill function of each struct type.
type fillFuncs struct {
	names map[string]string // type key → function name
	used  map[string]bool
	queue []types.Type
}

func (g *gen) fillName(t types.Type) string {
	k := types.TypeString(t, nil)
	if n, ok := g.fill.names[k]; ok {
		return n
	}
	base := "modkitFill" + ident(types.TypeString(t, func(p *types.Package) string {
		if p.Path() == g.pkgPath {
			return ""
		}
		return p.Name()
	}))
	name := base
	for i := 2; g.fill.used[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.fill.names[k] = name
	g.fill.used[name] = true
	g.fill.queue = append(g.fill.queue, t)
	return name
}

// flushFills writes the queued fill functions.
func (g *gen) flushFills() error {
	for len(g.fill.queue) > 0 {
		t := g.fill.queue[0]
		g.fill.queue = g.fill.queue[1:]
		name := g.fill.names[types.TypeString(t, nil)]
		tc, err := g.typeCode(t)
		if err != nil {
			return err
		}
		body, err := g.fillStruct("v", t)
		if err != nil {
			return err
		}
		g.f.Line()
		g.f.Commentf("%s decodes validated input into v.", name)
		g.f.Func().Id(name).Params(jen.Id("c").Op("*").Qual(checkPath, "Checker"), jen.Id("v").Op("*").Add(tc)).Block(body...)
	}
	return nil
}

func (g *gen) tmp(prefix string) string {
	g.tmpN++
	return fmt.Sprintf("%s%d", prefix, g.tmpN)
}

// fillStruct decodes an object into the struct that the expression v (a
// pointer or addressable value) denotes.
// Fields with a default get it when their key is absent.
func (g *gen) fillStruct(v string, t types.Type) ([]jen.Code, error) {
	var cases, vars, defaults []jen.Code
	for _, f := range schema.Fields(t) {
		target, prelude, err := g.fieldPath(v, t, f.Index)
		if err != nil {
			return nil, err
		}
		body, err := g.fillValue(target, f.Var.Type(), f.Quoted)
		if err != nil {
			return nil, err
		}
		if f.Default != "" {
			seen := g.tmp("has")
			vars = append(vars, jen.Var().Id(seen).Bool())
			body = append([]jen.Code{jen.Id(seen).Op("=").True()}, body...)
			defaults = append(defaults, jen.If(jen.Op("!").Id(seen)).Block(append(prelude,
				c("Default", jen.Op("&").Id(target), jen.Lit(f.Default)))...))
		}
		cases = append(cases, jen.Case(jen.Lit(f.Name)).Block(append(prelude, body...)...))
	}
	cases = append(cases, jen.Default().Block(c("Skip")))
	out := append(vars,
		c("Enter"),
		jen.For(c("Next")).Block(jen.Switch(jen.String().Parens(c("Key"))).Block(cases...)),
	)
	return append(out, defaults...), nil
}

// fieldPath returns the expression of the field at index below v,
// allocating embedded struct pointers on the way.
func (g *gen) fieldPath(v string, t types.Type, index []int) (string, []jen.Code, error) {
	expr := v
	var prelude []jen.Code
	cur := t
	for i, idx := range index {
		st := types.Unalias(cur).Underlying().(*types.Struct)
		f := st.Field(idx)
		expr += "." + f.Name()
		cur = f.Type()
		if i == len(index)-1 {
			break
		}
		if p, ok := types.Unalias(cur).(*types.Pointer); ok {
			ec, err := g.typeCode(p.Elem())
			if err != nil {
				return "", nil, err
			}
			prelude = append(prelude, jen.If(jen.Id(expr).Op("==").Nil()).Block(
				jen.Id(expr).Op("=").New(ec)))
			cur = p.Elem()
		}
	}
	return expr, prelude, nil
}

// fillValue decodes one value into the addressable expression target of
// type t.
func (g *gen) fillValue(target string, t types.Type, quoted bool) ([]jen.Code, error) {
	tc, err := g.typeCode(t)
	if err != nil {
		return nil, err
	}
	u := types.Unalias(t)
	if p, ok := u.(*types.Pointer); ok {
		ec, err := g.typeCode(p.Elem())
		if err != nil {
			return nil, err
		}
		inner, err := g.fillValue("(*"+target+")", p.Elem(), quoted)
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(c("Kind").Op("==").Add(kind("Null"))).Block(
			c("Null"),
			jen.Id(target).Op("=").Nil(),
		).Else().Block(append([]jen.Code{
			jen.If(jen.Id(target).Op("==").Nil()).Block(jen.Id(target).Op("=").New(ec)),
		}, inner...)...)}, nil
	}
	if schema.HasMethod(t, "UnmarshalJSON") {
		start := g.tmp("start")
		return []jen.Code{
			jen.Id(start).Op(":=").Id("c").Dot("Offset").Call(),
			c("Skip"),
			jen.If(jen.Err().Op(":=").Parens(jen.Op("&").Id(target)).Dot("UnmarshalJSON").Call(c("Span", jen.Id(start))), jen.Err().Op("!=").Nil()).Block(
				c("DecodeFailed", jen.Err())),
		}, nil
	}
	if schema.HasMethod(t, "UnmarshalText") {
		return []jen.Code{
			jen.If(jen.Err().Op(":=").Parens(jen.Op("&").Id(target)).Dot("UnmarshalText").Call(c("StrCopy")), jen.Err().Op("!=").Nil()).Block(
				c("DecodeFailed", jen.Err())),
		}, nil
	}
	if schema.HasMethod(t, "MarshalJSON") || schema.HasMethod(t, "MarshalText") {
		return g.fallback(target), nil
	}
	named := isNamed(u)
	switch x := u.Underlying().(type) {
	case *types.Basic:
		if quoted {
			return g.fillQuoted(target, x, tc), nil
		}
		var val *jen.Statement
		switch {
		case x.Kind() == types.Bool:
			val = c("Bool")
		case x.Kind() == types.String:
			val = c("Str")
		case x.Info()&types.IsUnsigned != 0:
			val = c("Num").Dot("Uint64").Call()
		case x.Info()&types.IsInteger != 0:
			val = c("Num").Dot("Int64").Call()
		case x.Kind() == types.Float32:
			val = c("Float", jen.Lit(32))
		case x.Kind() == types.Float64:
			val = c("Float", jen.Lit(64))
		default:
			return g.fallback(target), nil
		}
		if named || x.Kind() != types.Bool && x.Kind() != types.Int64 && x.Kind() != types.Uint64 && x.Kind() != types.Float64 {
			val = jen.Add(tc).Parens(val)
		}
		return []jen.Code{jen.Id(target).Op("=").Add(val)}, nil
	case *types.Struct:
		if isNamed(u) {
			return []jen.Code{jen.Id(g.fillName(u)).Call(jen.Id("c"), jen.Op("&").Id(target))}, nil
		}
		return g.fillStruct(target, u)
	case *types.Slice:
		if b, ok := types.Unalias(x.Elem()).Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return g.fallback(target), nil
		}
		elem := target + "[len(" + target + ")-1]"
		inner, err := g.fillValue(elem, x.Elem(), false)
		if err != nil {
			return nil, err
		}
		ec, err := g.typeCode(x.Elem())
		if err != nil {
			return nil, err
		}
		body := append([]jen.Code{
			jen.Var().Id("zero").Add(ec),
			jen.Id(target).Op("=").Append(jen.Id(target), jen.Id("zero")),
		}, inner...)
		return []jen.Code{
			jen.Id(target).Op("=").Add(tc).Values(),
			c("Enter"),
			jen.For(c("Next")).Block(body...),
		}, nil
	case *types.Map:
		kb, ok := types.Unalias(x.Key()).Underlying().(*types.Basic)
		if !ok || kb.Kind() != types.String || schema.HasMethod(x.Key(), "UnmarshalText") {
			return g.fallback(target), nil
		}
		kc, err := g.typeCode(x.Key())
		if err != nil {
			return nil, err
		}
		ec, err := g.typeCode(x.Elem())
		if err != nil {
			return nil, err
		}
		e := g.tmp("e")
		inner, err := g.fillValue(e, x.Elem(), false)
		if err != nil {
			return nil, err
		}
		key := jen.Add(kc).Parens(c("Key"))
		k := g.tmp("k")
		body := append([]jen.Code{
			jen.Id(k).Op(":=").Add(key),
			jen.Var().Id(e).Add(ec),
		}, inner...)
		body = append(body, jen.Id(target).Index(jen.Id(k)).Op("=").Id(e))
		return []jen.Code{
			jen.Id(target).Op("=").Make(tc),
			c("Enter"),
			jen.For(c("Next")).Block(body...),
		}, nil
	}
	return g.fallback(target), nil
}

// fallback hands one value to encoding/json.
func (g *gen) fallback(target string) []jen.Code {
	start := g.tmp("start")
	return []jen.Code{
		jen.Id(start).Op(":=").Id("c").Dot("Offset").Call(),
		c("Skip"),
		c("Unmarshal", jen.Id(start), jen.Op("&").Id(target)),
	}
}

// fillQuoted decodes a value written as a JSON string by ",string". The
// validator has checked the text's range; a failure is worded anyway.
func (g *gen) fillQuoted(target string, b *types.Basic, tc jen.Code) []jen.Code {
	x, txt := g.tmp("x"), g.tmp("s")
	var call *jen.Statement
	format := ""
	switch {
	case b.Kind() == types.Bool:
		return []jen.Code{jen.Id(target).Op("=").Add(tc).Parens(jen.String().Parens(c("Str")).Op("==").Lit("true"))}
	case b.Info()&types.IsUnsigned != 0:
		call = jen.Qual("strconv", "ParseUint").Call(jen.Id(txt), jen.Lit(10), jen.Lit(sizeOf(b)))
		format = fmt.Sprintf("uint%d", sizeOf(b))
	case b.Info()&types.IsInteger != 0:
		call = jen.Qual("strconv", "ParseInt").Call(jen.Id(txt), jen.Lit(10), jen.Lit(sizeOf(b)))
		format = fmt.Sprintf("int%d", sizeOf(b))
	default:
		call = jen.Qual("strconv", "ParseFloat").Call(jen.Id(txt), jen.Lit(sizeOf(b)))
		format = map[int]string{32: "float", 64: "double"}[sizeOf(b)]
	}
	return []jen.Code{
		jen.Id(txt).Op(":=").String().Parens(c("Str")),
		jen.List(jen.Id(x), jen.Err()).Op(":=").Add(call),
		jen.If(jen.Err().Op("!=").Nil()).Block(problem("MsgFormat", jen.Lit(format), jen.Id(txt))),
		jen.Id(target).Op("=").Add(tc).Parens(jen.Id(x)),
	}
}

func sizeOf(b *types.Basic) int {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32, types.Float32:
		return 32
	}
	return 64
}

func isNamed(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}
