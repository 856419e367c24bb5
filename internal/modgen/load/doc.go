// Package load loads Go packages for modgen and reads a mod's DefineMod
// value without running any of its code.
//
// # Loading
//
// [Packages] loads packages with golang.org/x/tools/go/packages using
// [Mode], checks every package error, and hides the previous
// zz_generated.modgen.go from the type checker, so a stale generated file
// never stops regeneration.
//
// # Reading a mod
//
// [FindMod] finds the one package-level variable initialized by
// sdk.DefineMod, follows its composite literals (and identifiers naming
// package-level variables) and reads names, descriptions, ids, titles and
// activity labels as compile-time constants. Every problem is a [Diag] with
// its position.
package load
