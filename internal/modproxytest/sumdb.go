package modproxytest

import (
	"context"
	"fmt"
	"io/fs"
	"sync"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// sumDB is a checksum database's log: one record per module version, the
// tree's stored hashes, and the key that signs the tree's head. It
// implements sumdb.ServerOps.
type sumDB struct {
	signer note.Signer

	mu      sync.Mutex
	records [][]byte
	index   map[string]int64 // path@version -> record id
	hashes  []tlog.Hash
}

// add appends the record of a module version's hashes.
func (d *sumDB) add(path, version, zipSum, modSum string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := int64(len(d.records))
	data := record(path, version, zipSum, modSum)
	hs, err := tlog.StoredHashes(id, data, d.hashReader())
	if err != nil {
		return err
	}
	d.records = append(d.records, data)
	d.hashes = append(d.hashes, hs...)
	d.index[path+"@"+version] = id
	return nil
}

// fork rewrites the record of path@version with other hashes and rebuilds
// the tree: the same size, another root, signed by the same key.
func (d *sumDB) fork(path, version, zipSum, modSum string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.index[path+"@"+version]
	if !ok {
		return fmt.Errorf("fork: no record of %s@%s", path, version)
	}
	d.records[id] = record(path, version, zipSum, modSum)
	d.hashes = nil
	for i, data := range d.records {
		hs, err := tlog.StoredHashes(int64(i), data, d.hashReader())
		if err != nil {
			return err
		}
		d.hashes = append(d.hashes, hs...)
	}
	return nil
}

func record(path, version, zipSum, modSum string) []byte {
	return fmt.Appendf(nil, "%s %s %s\n%s %s/go.mod %s\n", path, version, zipSum, path, version, modSum)
}

// hashReader reads the stored hashes; d.mu is held.
func (d *sumDB) hashReader() tlog.HashReaderFunc {
	return func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			if x < 0 || x >= int64(len(d.hashes)) {
				return nil, fmt.Errorf("no stored hash %d", x)
			}
			out[i] = d.hashes[x]
		}
		return out, nil
	}
}

func (d *sumDB) Signed(context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := int64(len(d.records))
	h, err := tlog.TreeHash(n, d.hashReader())
	if err != nil {
		return nil, err
	}
	return note.Sign(&note.Note{Text: string(tlog.FormatTree(tlog.Tree{N: n, Hash: h}))}, d.signer)
}

func (d *sumDB) ReadRecords(_ context.Context, id, n int64) ([][]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if id < 0 || n < 0 || id+n > int64(len(d.records)) {
		return nil, fmt.Errorf("no records %d to %d", id, id+n)
	}
	return d.records[id : id+n], nil
}

func (d *sumDB) Lookup(_ context.Context, m module.Version) (int64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.index[m.Path+"@"+m.Version]
	if !ok {
		return 0, fs.ErrNotExist
	}
	return id, nil
}

func (d *sumDB) ReadTileData(_ context.Context, t tlog.Tile) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return tlog.ReadTileData(t, d.hashReader())
}
