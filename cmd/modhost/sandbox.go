package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/modkit/modkit/internal/sandbox"
)

// sandboxRow is one promise in modhost sandbox --json.
type sandboxRow struct {
	Promise string `json:"promise"`
	// LandlockABI is the Landlock ABI that keeps the promise; 0 when
	// Landlock cannot.
	LandlockABI int    `json:"landlockABI"`
	Enforced    bool   `json:"enforced"`
	Status      string `json:"status"`
}

// sandboxReport is modhost sandbox --json.
type sandboxReport struct {
	OS        string `json:"os"`
	Kernel    string `json:"kernel,omitempty"`
	KernelABI int    `json:"kernelLandlockABI"`
	ABI       int    `json:"landlockABI"`
	// Seccomp reports that mods get the seccomp filter; SeccompWhyNot
	// says why not.
	Seccomp       bool         `json:"seccomp"`
	SeccompWhyNot string       `json:"seccompWhyNot,omitempty"`
	Full          bool         `json:"full"`
	Summary       string       `json:"summary"`
	Rows          []sandboxRow `json:"promises"`
}

func runSandbox(_ context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return e.fail(err)
	}
	if fs.NArg() > 0 {
		return e.fail(usagef("sandbox: unexpected argument %q", fs.Arg(0)))
	}
	enf, err := sandbox.Current()
	if err != nil {
		return e.fail(err)
	}
	if *asJSON {
		r := sandboxReport{OS: enf.OS, Kernel: enf.Kernel, KernelABI: enf.KernelABI, ABI: enf.ABI, Seccomp: enf.Seccomp == nil, Full: enf.Full(), Summary: enf.Summary()}
		if enf.Seccomp != nil {
			r.SeccompWhyNot = enf.Seccomp.Error()
		}
		for _, row := range enf.Rows {
			r.Rows = append(r.Rows, sandboxRow{Promise: row.Name, LandlockABI: row.ABI, Enforced: row.Enforced, Status: row.Status})
		}
		data, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "%s.\n\n", enf.Summary())
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "limit on a mod\ton this machine\n")
	for _, row := range enf.Rows {
		fmt.Fprintf(w, "%s\t%s\n", row.Name, row.Status)
	}
	w.Flush()
	if enf.Full() {
		fmt.Fprintf(e.stdout, "\nThis machine enforces every limit modkit enforces anywhere.\n")
	} else {
		fmt.Fprintf(e.stdout, "\nMods from your own sources run with what this machine enforces; mods installed from mods.lock "+
			"need --allow-unconfined, and --require-confinement refuses every mod.\n")
	}
	return exitOK
}
