package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/sdk"
)

// runPrompt gets a prompt's messages, as an MCP client's prompts/get
// does, and prints them.
func runPrompt(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("prompt", flag.ContinueOnError)
	sessionID := fs.String("session", "", "session id")
	answers := answerFlags{}
	fs.Var(answers, "answer", "answer the prompt's question `KEY=VALUE` without a terminal (repeatable), as call's --answer")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() < 1 {
		return e.fail(usagef("prompt: want NAME [ARG=VALUE...]"))
	}
	name := strings.TrimPrefix(fs.Arg(0), "/")
	promptArgs, err := nameValues("prompt "+name, "argument", fs.Args()[1:])
	if err != nil {
		return e.fail(err)
	}
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()
	if err := e.promptInScope("prompt", h, name); err != nil {
		return e.fail(err)
	}
	asker := e.asker(answers)
	res, err := h.GetPromptAsking(ctx, &host.PromptRequest{
		ID: name, Arguments: promptArgs, Session: e.session(*sessionID), Agent: e.agent, Asker: asker,
	})
	asker.unused()
	switch {
	case errors.Is(err, host.ErrBadArguments):
		return e.fail(usagef("%v", err))
	case err != nil:
		return e.fail(err)
	case len(res.Questions) > 0:
		return e.fail(fmt.Errorf("prompt %s: its question %s was left unanswered", name, res.Questions[0].Key))
	}
	writeMessages(e.stdout, res.Messages)
	return exitOK
}

// writeMessages prints a prompt's messages, each under a line naming its
// role and what it holds.
func writeMessages(w io.Writer, msgs []sdk.PromptMessage) {
	for i, m := range msgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		role := m.Role
		if role == "" {
			role = sdk.RoleUser
		}
		switch {
		case m.Image != nil:
			fmt.Fprintf(w, "-- %s: image, %s, %d bytes\n", role, orUnknown(m.Image.MIMEType), len(m.Image.Data))
		case m.Resource != nil && m.Resource.Blob != nil:
			fmt.Fprintf(w, "-- %s: resource %s, %s, %d bytes\n", role, m.Resource.URI, orUnknown(m.Resource.MIMEType), len(m.Resource.Blob))
		case m.Resource != nil:
			fmt.Fprintf(w, "-- %s: resource %s, %s\n", role, m.Resource.URI, orUnknown(m.Resource.MIMEType))
			writeLines(w, m.Resource.Text)
		default:
			fmt.Fprintf(w, "-- %s\n", role)
			writeLines(w, m.Text)
		}
	}
}

// writeLines writes text ending in a newline.
func writeLines(w io.Writer, text string) {
	fmt.Fprint(w, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(w)
	}
}
