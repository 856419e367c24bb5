// Package load loads Go packages for modgen and reads a mod's DefineMod
// value without running any of its code.
//
// # Loading
//
// [Packages] loads packages with golang.org/x/tools/go/packages using
// [Mode] and checks every package error. When a package does not build, it
// loads again with each previous zz_generated.modgen.go replaced, through an
// overlay, by a stub holding only a Modkit function, so a stale generated
// file never stops regeneration while the common case costs no more than a
// bare packages.Load.
//
// # Reading a mod
//
// [FindMod] finds the one package-level variable initialized by
// sdk.DefineMod, follows its composite literals (and identifiers naming
// package-level variables) and reads names, descriptions, ids, titles and
// activity labels as compile-time constants. Every problem is a [Diag] with
// its position.
package load
