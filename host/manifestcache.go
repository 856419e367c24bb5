package host

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/modkit/modkit/internal/manifestowned"
	"github.com/modkit/modkit/manifest"
)

// decodedManifests holds the manifests this process decoded, keyed by
// their bytes: decoding checks a manifest against its JSON Schema and the
// Go rules, the larger part of loading a mod, and hosts loaded again and
// again (modhost dev, tests, a fleet of mods) read the same bytes each
// time. Only manifests that decoded are kept. A kept manifest is shared by
// every host that loads its bytes, never copied: hosts only read a mod's
// manifest, and hand out deep copies of it ([manifest.Manifest.Clone],
// [manifest.Tool.Clone]). The bytes themselves are the key, rather than their SHA-256, which
// cost a first load more than the map's own hash and compare.
var decodedManifests struct {
	sync.RWMutex
	m     map[string]*manifest.Manifest
	bytes int // the keys' length
}

// maxDecodedManifests and maxDecodedBytes bound decodedManifests: past
// them, manifests are decoded and not kept.
const (
	maxDecodedManifests = 4096
	maxDecodedBytes     = 64 << 20
)

// decodeManifest is [manifest.Decode], remembered by content. It keeps
// nothing of data. The manifest it returns may be shared with other
// hosts: it must not be changed.
func decodeManifest(data []byte) (*manifest.Manifest, error) {
	decodedManifests.RLock()
	m, ok := decodedManifests.m[string(data)]
	decodedManifests.RUnlock()
	if ok {
		return m, nil
	}
	// One copy of data is both the manifest's (its schemas are slices of
	// it) and its key: a copy for each cost a first load twice the
	// memory. Neither is ever changed.
	own := bytes.Clone(data)
	v, err := manifestowned.Decode(own)
	if err != nil {
		return nil, err
	}
	m = v.(*manifest.Manifest)
	key := unsafe.String(unsafe.SliceData(own), len(own))
	decodedManifests.Lock()
	defer decodedManifests.Unlock()
	if len(decodedManifests.m) < maxDecodedManifests && decodedManifests.bytes+len(key) <= maxDecodedBytes {
		if decodedManifests.m == nil {
			decodedManifests.m = map[string]*manifest.Manifest{}
		}
		if _, ok := decodedManifests.m[key]; !ok {
			decodedManifests.m[key] = m
			decodedManifests.bytes += len(key)
		}
	}
	return m, nil
}
