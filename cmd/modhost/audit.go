package main

import (
	"context"
	"flag"
	"os"
	"time"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/audit"
)

// auditFlags are the flags of the audit log: mcp, call and command take
// them.
type auditFlags struct {
	file      *string
	arguments *bool
	replica   *string
}

func addAuditFlags(fs *flag.FlagSet) *auditFlags {
	host, _ := os.Hostname()
	return &auditFlags{
		file:      fs.String("audit-log", "", "append a JSON line to `FILE` (- for stdout, with mcp --http) for each call of a tool, prompt, resource or task: who, what, the arguments' SHA-256, how it ended"),
		arguments: fs.Bool("audit-arguments", false, "with --audit-log, write the arguments' values too, not only their SHA-256"),
		replica:   fs.String("replica", host, "name this server in audit records"),
	}
}

// open opens the audit log the flags name, or returns nil for none.
// stdoutUse says what stdout carries, which the log may not share: ""
// when it is free.
func (a *auditFlags) open(e *env, cmd, stdoutUse string) (*audit.Log, error) {
	opts := &audit.Options{Replica: *a.replica, Arguments: *a.arguments, Errors: e.stderr}
	switch *a.file {
	case "":
		if *a.arguments {
			return nil, usagef("%s: --audit-arguments needs --audit-log", cmd)
		}
		return nil, nil
	case "-":
		if stdoutUse != "" {
			return nil, usagef("%s: --audit-log -: stdout carries %s; name a file", cmd, stdoutUse)
		}
		return audit.New(e.stdout, opts), nil
	}
	l, err := audit.Open(*a.file, opts)
	if err != nil {
		return nil, usagef("%s: --audit-log: %v", cmd, err)
	}
	return l, nil
}

// cliRecord starts the record of a command of the CLI, by the local user.
func cliRecord(method string, start time.Time) *audit.Record {
	return &audit.Record{Time: start, Principal: audit.LocalPrincipal(), Transport: audit.CLI, Method: method}
}

// auditCall writes the record of modhost call's call of tool with input
// that returned res and err; decision is the person's, if asked.
func auditCall(log *audit.Log, start time.Time, tool string, input []byte, res *host.CallResult, err error, decision string) {
	if log == nil {
		return
	}
	rec := cliRecord("tools/call", start)
	rec.Tool = tool
	rec.SetArguments(input, log.Arguments())
	switch {
	case err != nil:
		rec.Outcome = audit.Failed
	default:
		rec.Outcome = string(res.Status) // the outcomes are the statuses' words
		if res.ApprovalReason != "" {
			rec.Approval = &audit.Approval{Reason: res.ApprovalReason, Decision: decision}
		}
	}
	rec.Finish()
	log.Write(rec)
}

// recordingApprover is approver, noting its decision in decision.
func recordingApprover(approver host.Approver, decision *string) host.Approver {
	return func(ctx context.Context, req *host.ApprovalRequest) (bool, error) {
		ok, err := approver(ctx, req)
		switch {
		case err != nil:
		case ok:
			*decision = audit.Approved
		default:
			*decision = audit.Declined
		}
		return ok, err
	}
}

// auditCommand writes the record of modhost command's run of the command
// id with args, which returned err.
func auditCommand(log *audit.Log, start time.Time, id string, args []byte, err error) {
	if log == nil {
		return
	}
	rec := cliRecord("command", start)
	rec.Command = id
	rec.SetArguments(args, log.Arguments())
	rec.Outcome = audit.Completed
	if err != nil {
		rec.Outcome = audit.Failed
	}
	rec.Finish()
	log.Write(rec)
}

// auditRefused writes the record of a call --scopes refused.
func auditRefused(log *audit.Log, start time.Time, method, tool string, input []byte) {
	if log == nil {
		return
	}
	rec := cliRecord(method, start)
	rec.Tool = tool
	rec.SetArguments(input, log.Arguments())
	rec.Outcome = audit.Refused
	rec.Finish()
	log.Write(rec)
}
