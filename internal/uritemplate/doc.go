// Package uritemplate parses the URI templates of resource templates (RFC
// 6570 level 1: literal text and {variables}) and matches URIs against
// them. It is small and free of the manifest's schema checker, so that mod
// binaries can link it.
package uritemplate
