package modbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"time"
)

// A cached binary is used only when the digest of its record's inputs is
// the digest of the files as they are now: every file of every package the
// build read, 100 files and 650 KB for a small mod in this module, read and
// hashed before each first start of a process. The cache keeps the digest
// it computed last, in stamp/<record's name>, with a print of the inputs'
// identities: each package directory's and embedded tree's, and each
// file's (device, inode, mode, size, modification and change times). A
// write to a file changes its change time, which cannot be set back, and an
// entry added, removed or renamed in a directory changes the directory's;
// so while the print holds, the files are those the digest was computed
// from, and DigestIn returns it after a stat of each instead of reading
// them. A print is stored only when every identity is older than settle (a
// second write within a file system's timestamp granularity would leave
// them as they were) and the same before and after the digest was
// computed.
const stampVersion = "modkit input stamp 1"

// stamp is what the cache keeps of one record's inputs.
type stamp struct {
	Print  string `json:"print"`
	Digest string `json:"digest"`
}

// DigestIn is Digest(inputs), the inputs of the record at recPath in the
// cache at root, taken from the cache's stamp of them while their print
// holds (see stampVersion).
func DigestIn(root, recPath string, inputs []Input) string {
	path := filepath.Join(root, "stamp", filepath.Base(recPath))
	before, settled, ok := inputsPrint(inputs)
	if !ok {
		return Digest(inputs)
	}
	if s := readStamp(path); s != nil && s.Print == before {
		return s.Digest
	}
	digest := Digest(inputs)
	if after, _, ok := inputsPrint(inputs); settled && ok && after == before {
		writeStamp(path, &stamp{Print: before, Digest: digest})
	}
	return digest
}

// inputsPrint hashes the identities of the inputs' directories, trees and
// files; settled reports that each is older than settle. ok is false when
// an identity cannot be had here (fileIdentity).
func inputsPrint(inputs []Input) (print string, settled, ok bool) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", stampVersion)
	now := time.Now()
	settled = true
	for _, in := range inputs {
		fmt.Fprintf(h, "input %s\x00", in.Dir)
		paths := []string{in.Dir}
		for _, t := range in.Trees {
			paths = append(paths, filepath.Join(in.Dir, filepath.FromSlash(t)))
		}
		for _, f := range in.Files {
			paths = append(paths, filepath.Join(in.Dir, filepath.FromSlash(f)))
		}
		for _, e := range in.Embed {
			fmt.Fprintf(h, "embed %s\x00", e)
		}
		for _, p := range paths {
			s, ok := writeStat(h, p, now)
			if !ok {
				return "", false, false
			}
			settled = settled && s
		}
	}
	return hex.EncodeToString(h.Sum(nil)), settled, true
}

// writeStat writes path and its identity, or its absence, to h; settled
// reports that it was not modified or changed within settle of now.
func writeStat(h hash.Hash, path string, now time.Time) (settled, ok bool) {
	fi, err := os.Stat(path)
	if err != nil {
		fmt.Fprintf(h, "%s unreadable\x00", path) // as Digest hashes it
		return true, true
	}
	id, changed, ok := fileStamp(fi)
	if !ok {
		return false, false
	}
	fmt.Fprintf(h, "%s %s\x00", path, id)
	return now.Sub(fi.ModTime()) >= settle && now.Sub(changed) >= settle, true
}

// settle is how old an input's identity must be for its stamp to be kept
// (a variable for tests).
var settle = 2 * time.Second

func readStamp(path string) *stamp {
	dir := filepath.Dir(path)
	if CheckPrivate(filepath.Dir(dir), true) != nil || CheckPrivate(dir, true) != nil || CheckPrivate(path, false) != nil {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var s stamp
	if json.Unmarshal(data, &s) != nil || s.Print == "" || s.Digest == "" {
		return nil
	}
	return &s
}

// writeStamp keeps s at path, when the cache exists; errors are ignored,
// the next start digests the files again.
func writeStamp(path string, s *stamp) {
	dir := filepath.Dir(path)
	if CheckPrivate(filepath.Dir(dir), true) != nil {
		return
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return
	}
	if CheckPrivate(dir, true) != nil {
		return
	}
	if data, err := json.Marshal(s); err == nil {
		writeReadOnly(path, data)
	}
}
