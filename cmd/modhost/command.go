package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/modkit/modkit/host"
)

func runCommand(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("command", flag.ContinueOnError)
	sessionID := fs.String("session", "", "session id")
	auditing := addAuditFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return e.fail(usagef("command: want ID [ARGS_JSON]"))
	}
	auditLog, err := auditing.open(e, "command", "the command's output")
	if err != nil {
		return e.fail(err)
	}
	defer auditLog.Close()
	start := time.Now()
	var cmdArgs json.RawMessage
	if fs.NArg() == 2 {
		cmdArgs = json.RawMessage(fs.Arg(1))
		if !json.Valid(cmdArgs) {
			return e.fail(usagef("command %s: arguments are not valid JSON", fs.Arg(0)))
		}
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	for _, m := range h.Mods() {
		for _, c := range m.Commands {
			if missing := missingScopes(e.scopes, c.Scopes); c.ID == fs.Arg(0) && len(missing) > 0 {
				auditRefused(auditLog, start, "command", "", cmdArgs)
				return e.fail(fmt.Errorf("command: %s needs the scopes %s, which --scopes does not grant", c.ID, strings.Join(missing, " ")))
			}
		}
	}
	msg, err := h.RunCommand(ctx, fs.Arg(0), cmdArgs, e.session(*sessionID))
	auditCommand(auditLog, start, fs.Arg(0), cmdArgs, err)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, msg)
	return exitOK
}

// promptInScope refuses, for cmd, the slash command (prompt) id when it
// needs scopes --scopes does not grant.
func (e *env) promptInScope(cmd string, h *host.Host, id string) error {
	for _, p := range h.Prompts() {
		if missing := missingScopes(e.scopes, p.Scopes); p.ID == id && len(missing) > 0 {
			return fmt.Errorf("%s: /%s needs the scopes %s, which --scopes does not grant", cmd, id, strings.Join(missing, " "))
		}
	}
	return nil
}

func runSlash(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("slash", flag.ContinueOnError)
	sessionID := fs.String("session", "", "session id")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() < 1 {
		return e.fail(usagef("slash: want ID [TEXT...]"))
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	id := strings.TrimPrefix(fs.Arg(0), "/")
	if err := e.promptInScope("slash", h, id); err != nil {
		return e.fail(err)
	}
	msg, err := h.RunSlashCommand(ctx, id, strings.Join(fs.Args()[1:], " "), e.session(*sessionID))
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, msg)
	return exitOK
}
