package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// The results section of bench/README.md lies between these two lines;
// -readme rewrites it from a run.
const (
	resultsBegin = "<!-- results: written by go run ./bench -readme README.md; do not edit -->"
	resultsEnd   = "<!-- results: end -->"
)

// machine says when and where a run measured, for the results' heading.
type machine struct {
	date     time.Time
	cores    int
	cpu      string // the model, from /proc/cpuinfo
	goVer    string
	commit   string // with "+changes" when the tree differs from it
	quick    bool
	rounds   int
	selected string // the -run expression, if any
}

// thisMachine describes this machine and the tree the run measured.
func thisMachine(ctx context.Context, cfg config) machine {
	m := machine{date: time.Now().UTC(), cores: runtime.NumCPU(), cpu: cpuModel(), goVer: runtime.Version(),
		commit: commit(ctx), quick: cfg.quick, rounds: cfg.rounds}
	if cfg.only != nil {
		m.selected = cfg.only.String()
	}
	return m
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or the
// architecture where there is none.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			key, value, ok := strings.Cut(sc.Text(), ":")
			if ok && strings.TrimSpace(key) == "model name" {
				return strings.TrimSpace(value)
			}
		}
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

// commit returns the tree's commit, marked "+changes" when files differ
// from it, or "unknown" outside a git checkout.
func commit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+changes"
	}
	return c
}

// heading says how, when and where the results were measured.
func (m machine) heading() string {
	how := "`go run ./bench`"
	if m.quick {
		how = "`go run ./bench -quick`, a quick run"
	}
	if m.selected != "" {
		how += fmt.Sprintf(", only the rows matching `%s`", m.selected)
	}
	return fmt.Sprintf("Measured by %s (%d rounds a row) on %s, on a machine of %d cores (%s), with %s, at commit %s.",
		how, m.rounds, m.date.Format("2006-01-02 15:04 UTC"), m.cores, m.cpu, m.goVer, m.commit)
}

// resultsSection is the README's results section for rows measured on m.
func resultsSection(m machine, rows []row) string {
	var b strings.Builder
	b.WriteString(resultsBegin + "\n\n")
	b.WriteString(m.heading() + "\n\n")
	writeTable(&b, rows)
	b.WriteString(resultsEnd)
	return b.String()
}

// writeReadme replaces the results section of the README at path.
func writeReadme(path, section string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(data)
	begin, end := strings.Index(text, resultsBegin), strings.Index(text, resultsEnd)
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no results section (a line %q, then %q)", path, resultsBegin, resultsEnd)
	}
	text = text[:begin] + section + text[end+len(resultsEnd):]
	return os.WriteFile(path, []byte(text), 0o644)
}
