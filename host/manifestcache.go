package host

import (
	"crypto/sha256"
	"sync"

	"github.com/modkit/modkit/manifest"
)

// decodedManifests holds the manifests this process decoded, keyed by the
// SHA-256 of their bytes: decoding checks a manifest against its JSON
// Schema and the Go rules, the larger part of loading a mod, and hosts
// loaded again and again (modhost dev, tests, a fleet of mods) read the
// same bytes each time. Only manifests that decoded are kept, and each
// caller gets its own copy.
var decodedManifests sync.Map // [sha256.Size]byte → *manifest.Manifest

// maxDecodedManifests bounds decodedManifests: past it, manifests are
// decoded and not kept.
const maxDecodedManifests = 4096

var decodedCount struct {
	sync.Mutex
	n int
}

// decodeManifest is [manifest.Decode], remembered by content.
func decodeManifest(data []byte) (*manifest.Manifest, error) {
	key := sha256.Sum256(data)
	if m, ok := decodedManifests.Load(key); ok {
		return m.(*manifest.Manifest).Clone(), nil
	}
	m, err := manifest.Decode(data)
	if err != nil {
		return nil, err
	}
	decodedCount.Lock()
	keep := decodedCount.n < maxDecodedManifests
	if keep {
		decodedCount.n++
	}
	decodedCount.Unlock()
	if keep {
		decodedManifests.Store(key, m.Clone())
	}
	return m, nil
}
