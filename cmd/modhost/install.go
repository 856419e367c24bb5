package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/modkit/modkit/internal/modbuild"
	"github.com/modkit/modkit/internal/modlock"
	"github.com/modkit/modkit/manifest"
)

// lockCommands manage ./mods.lock; they load no mods but the ones they
// install.
var lockCommands = map[string]bool{"get": true, "update": true, "remove": true, "verify": true}

// lockedMods returns the directories, in the module cache, of the mods
// ./mods.lock pins, fetching those missing; a mod whose bytes differ from
// the lock is an error, and then nothing runs.
func lockedMods(ctx context.Context, progress io.Writer) ([]string, error) {
	entries, err := modlock.Read(modlock.FileName)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	// A prebuilt cache holds checked copies: no go command is asked.
	if root, err := cacheRoot(); err == nil {
		idx, err := modbuild.ReadIndex(root)
		if err != nil {
			return nil, err
		}
		if idx != nil {
			return modlock.ResolvePrebuilt(entries, root, idx)
		}
	}
	dirs, err := modlock.Resolve(ctx, entries, lockOptions(progress))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", modlock.FileName, err)
	}
	return dirs, nil
}

// lockOptions are modlock's options: the go command's output on progress,
// the copies of locked modules beside the host's build cache.
func lockOptions(progress io.Writer) *modlock.Options {
	opts := &modlock.Options{Progress: progress}
	if dir := os.Getenv("MODKIT_CACHE"); dir != "" {
		opts.CopyDir = filepath.Join(dir, "mods")
	}
	return opts
}

// yesFlag is get's and update's --yes.
const yesFlag = "allow, without asking, a version that widens a mod's permissions or loosens its approval rules"

// lockCommand parses the flags of the mods.lock subcommand name (get,
// update, remove, verify), with --yes when yes is not nil, checks its
// arguments with check (nil: any) and reads ./mods.lock.
func lockCommand(name string, args []string, yes *bool, check func(args []string) error) ([]string, []modlock.Entry, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if yes != nil {
		fs.BoolVar(yes, "yes", false, yesFlag)
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, nil, err
	}
	if check != nil {
		if err := check(fs.Args()); err != nil {
			return nil, nil, err
		}
	}
	entries, err := modlock.Read(modlock.FileName)
	return fs.Args(), entries, err
}

// installs is what get and update install: each mod in turn, then all
// pinned at once.
type installs struct {
	e   *env
	yes bool
	// entries are mods.lock's, with what was installed so far.
	entries   []modlock.Entry
	installed []modlock.Entry
	// refused is set once a version was refused for want of consent.
	refused bool
}

// add installs the mod of package path at version. A version refused for
// want of consent is said on stderr, and the next mod goes on; any other
// error ends the command.
func (in *installs) add(ctx context.Context, path, version string) error {
	entry, err := in.e.install(ctx, path, version, in.entries, in.yes)
	var nc *noConsent
	if errors.As(err, &nc) {
		fmt.Fprintf(in.e.stderr, "modhost: %v\n", err)
		in.refused = true
		return nil
	}
	if err != nil {
		return err
	}
	in.entries = replaceEntry(in.entries, entry)
	in.installed = append(in.installed, entry)
	return nil
}

// pin pins the installed entries and returns the command's exit code: 1
// when a version was refused for want of consent.
func (in *installs) pin() int {
	if err := pin(in.installed); err != nil {
		return in.e.fail(err)
	}
	if in.refused {
		return exitFailed
	}
	return exitOK
}

func runGet(ctx context.Context, e *env, args []string) int {
	in := &installs{e: e}
	mods, entries, err := lockCommand("get", args, &in.yes, func(args []string) error {
		if len(args) == 0 {
			return usagef("get: name a mod, MODULE[/PACKAGE]@VERSION")
		}
		return nil
	})
	if err != nil {
		return e.fail(err)
	}
	in.entries = entries
	for _, arg := range mods {
		path, version, _ := strings.Cut(arg, "@")
		if path == "" || strings.ContainsAny(version, "@ ") {
			return e.fail(usagef("get: %q: want MODULE[/PACKAGE]@VERSION", arg))
		}
		if version == "" {
			version = "latest"
		}
		if err := in.add(ctx, path, version); err != nil {
			return e.fail(err)
		}
	}
	return in.pin()
}

// pin puts the installed entries in ./mods.lock, each in place of the
// entry of the same mod, keeping what another modhost pinned meanwhile;
// with none, it leaves the lock untouched.
func pin(installed []modlock.Entry) error {
	if len(installed) == 0 {
		return nil
	}
	return modlock.Edit(modlock.FileName, func(entries []modlock.Entry) []modlock.Entry {
		for _, e := range installed {
			entries = replaceEntry(entries, e)
		}
		return entries
	})
}

// install fetches a mod, checks it against the lock when it pins the same
// version, prints what the version changes against the locked one (or,
// for a mod new to the lock, the permissions it asks for), asks for
// consent when it widens them (yes is --yes), then builds and starts it
// (so an incompatible protocol is refused now), prints what it offers and
// returns its lock entry. A version refused consent is a *noConsent.
func (e *env) install(ctx context.Context, path, version string, locked []modlock.Entry, yes bool) (modlock.Entry, error) {
	f, err := modlock.Download(ctx, path, version, lockOptions(e.stderr))
	if err != nil {
		return modlock.Entry{}, fmt.Errorf("get %s@%s: %w", path, version, err)
	}
	entry, err := f.Entry()
	if err != nil {
		return modlock.Entry{}, fmt.Errorf("get %s@%s: %v", f.Module, f.Version, err)
	}
	var was *modlock.Entry
	for _, old := range locked {
		if old.Mod == entry.Mod {
			was = &old
		}
	}
	if was != nil && was.Version == entry.Version {
		if err := modlock.Compare(*was, f); err != nil {
			return modlock.Entry{}, fmt.Errorf("%s: %w", modlock.FileName, err)
		}
	} else if err := e.consent(ctx, f, was, yes); err != nil {
		return modlock.Entry{}, err
	}
	dirs, err := modlock.Resolve(ctx, []modlock.Entry{entry}, lockOptions(e.stderr))
	if err != nil {
		return modlock.Entry{}, fmt.Errorf("get %s: %w", entry.String(), err)
	}
	man, err := e.startMod(ctx, dirs[0])
	if err != nil {
		return modlock.Entry{}, fmt.Errorf("get %s: %w", entry.String(), err)
	}
	fmt.Fprintf(e.stdout, "%s %s\n", f.Module, f.Version)
	writeOffers(e.stdout, man)
	return entry, nil
}

// startMod loads the mod in dir, builds and starts it, and returns its
// manifest.
func (e *env) startMod(ctx context.Context, dir string) (*manifest.Manifest, error) {
	e.mods, e.installed = []string{dir}, []string{dir}
	h, err := e.load()
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if u := h.Unavailable(); len(u) > 0 {
		return nil, u[0].Err
	}
	mods := h.Mods()
	if len(mods) != 1 {
		return nil, fmt.Errorf("%s holds %d mods, want 1", dir, len(mods))
	}
	if err := h.Start(ctx, mods[0].ID); err != nil {
		return nil, err
	}
	return mods[0], nil
}

// writeOffers prints what a mod offers: its tools, commands, slash
// commands, resources, resource templates and agents.
func writeOffers(w io.Writer, man *manifest.Manifest) {
	fmt.Fprintf(w, "mod %s: %s\n", man.ID, man.Description)
	for _, t := range man.Tools {
		asks := ""
		if t.Approval != nil {
			asks = "(asks for approval) "
		}
		fmt.Fprintf(w, "  tool %s: %s%s\n", t.Name, asks, firstSentence(t.Description))
	}
	for _, c := range man.Commands {
		fmt.Fprintf(w, "  command %s: %s\n", c.ID, c.Title)
	}
	for _, s := range man.SlashCommands {
		fmt.Fprintf(w, "  slash command /%s: %s\n", s.ID, firstSentence(s.Description))
	}
	for _, r := range man.Resources {
		fmt.Fprintf(w, "  resource %s: %s\n", r.URI, firstSentence(r.Description))
	}
	for _, r := range man.ResourceTemplates {
		fmt.Fprintf(w, "  resource template %s: %s\n", r.URITemplate, firstSentence(r.Description))
	}
	for _, a := range man.Agents {
		fmt.Fprintf(w, "  agent %s: tools %s\n", a.Name, strings.Join(a.Tools, ", "))
	}
	for _, p := range man.Permissions.Lines() {
		fmt.Fprintf(w, "  permission: %s\n", p)
	}
}

// firstSentence returns text up to its first ". ", for one-line listings.
func firstSentence(text string) string {
	if i := strings.Index(text, ". "); i >= 0 {
		return text[:i+1]
	}
	return text
}

// replaceEntry returns entries with e in place of the entry of the same
// mod, or added.
func replaceEntry(entries []modlock.Entry, e modlock.Entry) []modlock.Entry {
	out := slices.DeleteFunc(slices.Clone(entries), func(old modlock.Entry) bool { return old.Mod == e.Mod })
	return append(out, e)
}

// selected returns the entries naming, by module or mod path, one of
// names, all of them for none; a name matching no entry is an error.
func selected(entries []modlock.Entry, names []string) ([]modlock.Entry, error) {
	if len(names) == 0 {
		return entries, nil
	}
	var out []modlock.Entry
	for _, name := range names {
		n := len(out)
		for _, e := range entries {
			if e.Module == name || e.Mod == name {
				out = append(out, e)
			}
		}
		if len(out) == n {
			return nil, usagef("%s locks no mod of %s", modlock.FileName, name)
		}
	}
	return out, nil
}

func runUpdate(ctx context.Context, e *env, args []string) int {
	in := &installs{e: e}
	names, entries, err := lockCommand("update", args, &in.yes, nil)
	if err != nil {
		return e.fail(err)
	}
	in.entries = entries
	todo, err := selected(entries, names)
	if err != nil {
		return e.fail(err)
	}
	for _, old := range todo {
		latest, err := modlock.Latest(ctx, old.Module, lockOptions(e.stderr))
		if err != nil {
			return e.fail(fmt.Errorf("update %s: %w", old.String(), err))
		}
		if semver.Compare(latest, old.Version) <= 0 {
			fmt.Fprintf(e.stdout, "%s %s is up to date\n", old.Module, old.Version)
			continue
		}
		if err := in.add(ctx, old.Mod, latest); err != nil {
			return e.fail(err)
		}
	}
	return in.pin()
}

func runRemove(_ context.Context, e *env, args []string) int {
	names, entries, err := lockCommand("remove", args, nil, func(args []string) error {
		if len(args) == 0 {
			return usagef("remove: name a module or a mod's package")
		}
		return nil
	})
	if err != nil {
		return e.fail(err)
	}
	gone, err := selected(entries, names)
	if err != nil {
		return e.fail(err)
	}
	unpin := func(entries []modlock.Entry) []modlock.Entry {
		return slices.DeleteFunc(entries, func(e modlock.Entry) bool {
			return slices.ContainsFunc(gone, func(g modlock.Entry) bool { return g.Equal(&e) })
		})
	}
	if err := modlock.Edit(modlock.FileName, unpin); err != nil {
		return e.fail(err)
	}
	for _, g := range gone {
		fmt.Fprintf(e.stdout, "removed %s\n", g.String())
	}
	return exitOK
}

func runVerify(ctx context.Context, e *env, args []string) int {
	_, entries, err := lockCommand("verify", args, nil, func(args []string) error {
		if len(args) > 0 {
			return usagef("verify: unexpected argument %q", args[0])
		}
		return nil
	})
	if err != nil {
		return e.fail(err)
	}
	errs := modlock.Verify(ctx, entries, lockOptions(e.stderr))
	if len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintf(e.stderr, "modhost: verify: %v\n", err)
		}
		return e.fail(errors.New("verify: " + modlock.FileName + " does not match what was fetched"))
	}
	fmt.Fprintf(e.stdout, "%s: %d mods verified\n", modlock.FileName, len(entries))
	for _, en := range entries {
		if en.Permissions == nil {
			fmt.Fprintf(e.stdout, "%s: %s has no allow lines, written before modhost recorded permissions; modhost get %s@%s writes them\n",
				modlock.FileName, en.String(), en.Mod, en.Version)
		}
	}
	return exitOK
}
