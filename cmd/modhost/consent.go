package main

import (
	"context"
	"fmt"

	"github.com/modkit/modkit/internal/modchange"
	"github.com/modkit/modkit/internal/modlock"
	"github.com/modkit/modkit/manifest"
)

// noConsent is the refusal of a version that widens what a mod may do, for
// want of --yes or of a yes on the terminal.
type noConsent struct {
	// mod and version name the version refused.
	mod, version string
	// kept is the version the lock keeps; "" for a mod new to it.
	kept string
	// why says why no yes came.
	why string
}

func (n *noConsent) Error() string {
	kept := "nothing is pinned"
	if n.kept != "" {
		kept = "mods.lock keeps " + n.kept
	}
	return fmt.Sprintf("%s %s lets the mod do more, as above, and %s, so %s; answer yes on a terminal or pass --yes to allow it",
		n.mod, n.version, n.why, kept)
}

// consent prints what the fetched version changes against the locked one,
// was (for a mod new to the lock, nil: the permissions it asks for), and
// returns nil when it may be installed: it needs consent only when it
// widens a permission or loosens an approval rule, and then yes (--yes)
// gives it, or the person on the terminal; else a *noConsent.
func (e *env) consent(ctx context.Context, f *modlock.Fetched, was *modlock.Entry, yes bool) error {
	next, err := f.Manifest()
	if err != nil {
		return fmt.Errorf("get %s@%s: %v", f.Module, f.Version, err)
	}
	var old *manifest.Manifest
	if was != nil {
		if old, err = e.lockedManifest(ctx, *was); err != nil {
			return err
		}
	}
	changes := modchange.Diff(old, next)
	if len(changes) == 0 {
		return nil
	}
	if was != nil {
		fmt.Fprintf(e.stdout, "%s %s => %s:\n", f.Mod, was.Version, f.Version)
	} else {
		fmt.Fprintf(e.stdout, "%s %s asks for more than the least every mod gets:\n", f.Mod, f.Version)
	}
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "  %s\n", c)
	}
	if !modchange.AnyNeedsConsent(changes) {
		return nil
	}
	why, err := e.allow(ctx, f.Mod+" "+f.Version, yes)
	if err != nil || why == "" {
		return err
	}
	refused := &noConsent{mod: f.Mod, version: f.Version, why: why}
	if was != nil {
		refused.kept = was.Version
	}
	return refused
}

// allow decides on a version that needs consent, what ("MOD VERSION"): yes
// (--yes) allows it, else the person on the terminal. It returns why no
// yes came, "" for a yes.
func (e *env) allow(ctx context.Context, what string, yes bool) (why string, err error) {
	switch {
	case yes:
		fmt.Fprintf(e.stderr, "modhost: %s allowed by --yes\n", what)
		return "", nil
	case !isTerminal(e.stdin) || !isTerminal(e.stderr):
		return "there is no terminal to ask on", nil
	}
	ok, err := askYes(ctx, e.stdin, e.stderr, "Allow "+what+" to do more, as above?")
	if err != nil {
		return "", err
	}
	if !ok {
		return "the answer was no", nil
	}
	return "", nil
}

// lockedManifest returns the manifest of the version the lock pins,
// fetched when the module cache lacks it, and checked against the lock.
func (e *env) lockedManifest(ctx context.Context, was modlock.Entry) (*manifest.Manifest, error) {
	f, err := modlock.Download(ctx, was.Mod, was.Version, lockOptions(e.stderr))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", was.String(), err)
	}
	if err := modlock.Compare(was, f); err != nil {
		return nil, fmt.Errorf("%s: %w", modlock.FileName, err)
	}
	m, err := f.Manifest()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", was.String(), err)
	}
	return m, nil
}
