package main

import (
	"os"
	"runtime"
	"strconv"
	"testing"
)

func TestOneProcForStdio(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	os.Unsetenv("GOMAXPROCS")
	before := runtime.GOMAXPROCS(0)
	restore := oneProcForStdio()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS while serving stdio: got %d, want 1", got)
	}
	if got, want := os.Getenv("GOMAXPROCS"), strconv.Itoa(before); got != want {
		t.Errorf("$GOMAXPROCS for the mods: got %q, want %q", got, want)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS after: got %d, want %d", got, before)
	}
	if v, ok := os.LookupEnv("GOMAXPROCS"); ok {
		t.Errorf("$GOMAXPROCS after: got %q, want it unset", v)
	}
}

func TestOneProcForStdioKeepsSetGOMAXPROCS(t *testing.T) {
	t.Setenv("GOMAXPROCS", "3")
	before := runtime.GOMAXPROCS(0)
	restore := oneProcForStdio()
	defer restore()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS with $GOMAXPROCS set: got %d, want %d", got, before)
	}
	if got := os.Getenv("GOMAXPROCS"); got != "3" {
		t.Errorf("$GOMAXPROCS: got %q, want %q", got, "3")
	}
}
