// Package manifestowned lets the host decode a manifest from bytes it
// hands over, without the copy [manifest.Decode] makes of them: the host
// keeps the bytes of each manifest it remembers as its key, and the
// manifest's raw values (its tools' schemas) are slices of that one copy.
// Package manifest sets Decode.
package manifestowned

// Decode decodes data as manifest.Decode does, into a *manifest.Manifest
// whose raw values are slices of data. The caller hands data over: it
// must never change it, as it must never change the manifest.
var Decode func(data []byte) (any, error)
