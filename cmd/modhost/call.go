package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/coalesce"
	"github.com/modkit/modkit/sdk"
)

// callOutput is what call --json prints.
type callOutput struct {
	Tool     string          `json:"tool"`
	CallID   string          `json:"callId"`
	Status   host.Status     `json:"status"`
	Text     string          `json:"text"`
	Result   json.RawMessage `json:"result"`
	Outputs  []outputJSON    `json:"outputs,omitempty"`
	Error    string          `json:"error"`
	Activity activityJSON    `json:"activity"`
	// ApprovalReason is what the person was asked to approve, if anything.
	ApprovalReason string `json:"approvalReason,omitempty"`
	// Actions are the call's client actions, {"kind", "params"} each.
	Actions []sdk.ClientAction `json:"clientActions,omitempty"`
}

type outputJSON struct {
	MimeType string `json:"mimeType"`
	Content  string `json:"content"`
	URI      string `json:"uri,omitempty"`
}

type activityJSON struct {
	Title  string         `json:"title"`
	Status string         `json:"status"`
	Log    []sdk.LogEntry `json:"log"`
}

func runCall(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the outcome as JSON")
	timeout := fs.Duration("timeout", 0, "fail the call when its tool runs longer than this, counted from when its mod is ready, not during its build (default: the host's, 5m)")
	sessionID := fs.String("session", "", "session id")
	yes := fs.Bool("yes", false, "approve the call if the tool asks for a person's approval")
	answers := answerFlags{}
	fs.Var(answers, "answer", "answer the tool's question `KEY=VALUE` without a terminal (repeatable): a form's values as a JSON object, a lone field's value, accept, decline or cancel")
	auditing := addAuditFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return e.fail(usagef("call: want TOOL [INPUT_JSON|-]"))
	}
	auditLog, err := auditing.open(e, "call", "the call's output")
	if err != nil {
		return e.fail(err)
	}
	defer auditLog.Close()
	start := time.Now()
	tool := fs.Arg(0)
	input := json.RawMessage("{}")
	if fs.NArg() == 2 {
		arg := fs.Arg(1)
		if arg == "-" {
			data, err := io.ReadAll(e.stdin)
			if err != nil {
				return e.fail(fmt.Errorf("call: read input: %v", err))
			}
			arg = string(data)
		}
		input = json.RawMessage(arg)
	}
	// Spans go where OTEL_* says, never to stdout: a call prints nothing more.
	_, stopTelemetry, err := e.startTelemetry(ctx, false, nil)
	if err != nil {
		return e.fail(fmt.Errorf("call: %w", err))
	}
	defer stopTelemetry()
	h, err := e.load()
	if err != nil {
		return e.fail(err)
	}
	defer h.Close()

	// The first ending signal (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) cancels
	// the call; the tool sees it, and the deferred Close stops the mods
	// and removes their socket directories. A second one kills modhost as
	// usual.
	ctx, cancel := untilSignal(ctx)
	defer cancel()

	if e.scopes != nil {
		tools, err := h.Tools(e.agent)
		if err != nil {
			return e.fail(err)
		}
		for _, t := range tools {
			if missing := missingScopes(e.scopes, t.Scopes); t.Name == tool && len(missing) > 0 {
				auditRefused(auditLog, start, "tools/call", tool, input)
				return e.fail(fmt.Errorf("call: tool %s needs the scopes %s, which --scopes does not grant", tool, strings.Join(missing, " ")))
			}
		}
	}
	view := newActivityView(e.stderr)
	asker := e.asker(answers)
	decision := ""
	res, err := h.Call(ctx, &host.CallRequest{
		Tool:       tool,
		Input:      input,
		Session:    e.session(*sessionID),
		Caller:     host.LocalCaller(e.scopes),
		Agent:      e.agent,
		OnActivity: view.show,
		Approver:   recordingApprover(e.approver(*yes), &decision),
		Asker:      asker,
		// The host counts it from when the mod is ready: a first call's
		// build is not the tool's time, nor thrown away when it is long.
		Timeout: *timeout,
	})
	view.finish()
	asker.unused()
	auditCall(auditLog, start, tool, input, res, err, decision)
	if err != nil {
		return e.fail(err)
	}
	if *asJSON {
		out := callOutput{
			Tool: res.Tool, CallID: res.CallID, Status: res.Status, Text: res.Text,
			Result: res.Result, Error: res.Error,
			Activity:       activityJSON{Title: res.Activity.Title, Status: res.Activity.Status, Log: res.Activity.Log},
			ApprovalReason: res.ApprovalReason,
			Actions:        res.Actions,
		}
		if out.Result == nil {
			out.Result = json.RawMessage("null")
		}
		if out.Activity.Log == nil {
			out.Activity.Log = []sdk.LogEntry{}
		}
		for _, o := range res.Outputs {
			out.Outputs = append(out.Outputs, outputJSON{MimeType: o.MimeType, Content: o.Content, URI: o.URI})
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
	} else {
		switch res.Status {
		case host.StatusCompleted, host.StatusFailed, host.StatusDenied:
			fmt.Fprintln(e.stdout, res.Text)
			showActions(e.stderr, res.Actions)
		case host.StatusCancelled:
			fmt.Fprintf(e.stderr, "modhost: call %s cancelled\n", tool)
		}
	}
	switch res.Status {
	case host.StatusCompleted:
		return exitOK
	case host.StatusCancelled:
		return exitCancelled
	default:
		return exitFailed
	}
}

// activityView shows a call's activity on stderr. On a terminal it draws
// the title, the log lines and a live status line, redrawn at most ten times
// a second; otherwise it prints the title and the log lines only, one line
// each, so that a log file gets no flood of status updates.
type activityView struct {
	w   io.Writer
	tty bool

	status *coalesce.Coalescer[string] // on a terminal

	mu          sync.Mutex
	statusText  string
	statusShown bool
}

// statusInterval is the least time between two redraws of the status line.
const statusInterval = 100 * time.Millisecond

func newActivityView(w io.Writer) *activityView {
	v := &activityView{w: w}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			v.tty = true
			v.status = coalesce.New(statusInterval, v.drawStatus)
		}
	}
	return v
}

// drawStatus redraws the status line.
func (v *activityView) drawStatus(text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.statusText = text
	fmt.Fprintf(v.w, "\r\x1b[K… %s", text)
	v.statusShown = true
}

// clearStatus erases the status line; v.mu is held.
func (v *activityView) clearStatus() {
	if v.statusShown {
		fmt.Fprint(v.w, "\r\x1b[K")
		v.statusShown = false
	}
}

func (v *activityView) show(e host.ActivityEvent) {
	text := strings.ReplaceAll(e.Update.Text, "\n", " ")
	if e.Update.Kind == sdk.ActivityStatus {
		if v.tty {
			v.status.Push(text)
		}
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch e.Update.Kind {
	case sdk.ActivityTitle:
		v.clearStatus()
		fmt.Fprintf(v.w, "== %s\n", text)
	case sdk.ActivityLog:
		v.clearStatus()
		fmt.Fprintf(v.w, "%4d  %s\n", e.Seq, text)
	default:
		return
	}
	if v.tty && v.statusText != "" {
		fmt.Fprintf(v.w, "… %s", v.statusText)
		v.statusShown = true
	}
}

// finish draws the latest status and ends the status line.
func (v *activityView) finish() {
	if v.status != nil {
		v.status.Flush()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.statusShown {
		fmt.Fprintln(v.w)
		v.statusShown = false
	}
}
