package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// algorithms are the signature algorithms a token may use. HS256 and
// "none" are not among them: a token signed with a shared secret (or with
// the issuer's public key used as one) or not signed is malformed.
var algorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256, jose.EdDSA}

// MaxKeyAge is how long a key set is used before it is fetched again, so
// that a key the issuer withdrew stops being trusted.
const MaxKeyAge = time.Hour

// keySet is the issuer's JSON Web Key Set: its public signing keys, by kid,
// fetched again for an unknown kid at most once per refresh interval, and
// when it is older than MaxKeyAge.
type keySet struct {
	opts    *Options
	getJSON func(ctx context.Context, u string, v any) (int, error)
	uri     string

	fetch   sync.Mutex // one fetch at a time
	mu      sync.Mutex // guards the fields below
	byKID   map[string][]jose.JSONWebKey
	all     []jose.JSONWebKey
	fetched time.Time // when the set was last fetched, successfully or not
	loaded  time.Time // when it was last fetched successfully
}

func (ks *keySet) init(opts *Options, getJSON func(ctx context.Context, u string, v any) (int, error)) {
	ks.opts = opts
	ks.getJSON = getJSON
}

// refresh fetches the set and keeps its public signing keys.
func (ks *keySet) refresh(ctx context.Context) error {
	ks.mu.Lock()
	ks.fetched = ks.opts.Now()
	ks.mu.Unlock()
	var set jose.JSONWebKeySet
	if _, err := ks.getJSON(ctx, ks.uri, &set); err != nil {
		return fmt.Errorf("keys %s: %w", ks.uri, err)
	}
	byKID := map[string][]jose.JSONWebKey{}
	var all []jose.JSONWebKey
	for _, k := range set.Keys {
		if !k.IsPublic() || !k.Valid() || (k.Use != "" && k.Use != "sig") {
			continue
		}
		byKID[k.KeyID] = append(byKID[k.KeyID], k)
		all = append(all, k)
	}
	if len(all) == 0 {
		return fmt.Errorf("keys %s: no public signing key", ks.uri)
	}
	ks.mu.Lock()
	ks.byKID, ks.all, ks.loaded = byKID, all, ks.fetched
	ks.mu.Unlock()
	return nil
}

// errUnknownKey is the error of a token signed by a key the set does not
// have.
var errUnknownKey = errors.New("the token is signed with an unknown key")

// lookup returns the keys that may have signed a token with this kid and
// alg: those of its kid, or every key for a token with none. An unknown
// kid fetches the set again, unless it was fetched within the refresh
// interval.
func (ks *keySet) lookup(ctx context.Context, kid, alg string) ([]jose.JSONWebKey, error) {
	if ks.due(MaxKeyAge) {
		ks.fetch.Lock()
		if ks.due(MaxKeyAge) {
			// A set that cannot be fetched keeps the keys it had.
			ks.refresh(ctx)
		}
		ks.fetch.Unlock()
	}
	if keys := ks.find(kid, alg); len(keys) > 0 {
		return keys, nil
	}
	ks.fetch.Lock()
	defer ks.fetch.Unlock()
	// Another request may have fetched the set while this one waited.
	if keys := ks.find(kid, alg); len(keys) > 0 {
		return keys, nil
	}
	if !ks.due(0) {
		return nil, errUnknownKey
	}
	if err := ks.refresh(ctx); err != nil {
		return nil, fmt.Errorf("%w (%v)", errUnknownKey, err)
	}
	if keys := ks.find(kid, alg); len(keys) > 0 {
		return keys, nil
	}
	return nil, errUnknownKey
}

// find returns the known keys of kid (all for "") that fit alg.
func (ks *keySet) find(kid, alg string) []jose.JSONWebKey {
	ks.mu.Lock()
	keys := ks.all
	if kid != "" {
		keys = ks.byKID[kid]
	}
	ks.mu.Unlock()
	var fit []jose.JSONWebKey
	for _, k := range keys {
		if k.Algorithm == "" || k.Algorithm == alg {
			fit = append(fit, k)
		}
	}
	return fit
}

// due reports whether the set should be fetched again: it was loaded
// longer than age ago, and no fetch was tried within the refresh
// interval.
func (ks *keySet) due(age time.Duration) bool {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	now := ks.opts.Now()
	return now.Sub(ks.loaded) >= age && now.Sub(ks.fetched) >= ks.opts.RefreshInterval
}
