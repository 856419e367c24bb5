package devserver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/modkit/modkit/host"
	"github.com/modkit/modkit/internal/devserver"
	"github.com/modkit/modkit/internal/testenv"
	"github.com/modkit/modkit/sdk"
)

// BenchmarkReload measures a reload after a one-line edit of a mod:
// regenerate, load, build and start it. The go-build sub-benchmark builds
// the same edit's binary with go build alone, as the host does (the mod
// with a serving main), for comparison.
func BenchmarkReload(b *testing.B) {
	dir := testenv.ModuleDir(b)
	src := filepath.Join(dir, "reloady.go")
	edit := func(i int) {
		if err := os.WriteFile(src, []byte(reloadySource(strconv.Quote("v"+strconv.Itoa(i)))), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	edit(0)
	if ps := devserver.Generate(dir); len(ps) > 0 {
		b.Fatal(ps)
	}
	b.Run("reload", func(b *testing.B) {
		opts := &host.Options{CacheDir: b.TempDir(), Progress: io.Discard}
		load := func() (*host.Host, error) { return host.Load([]string{dir}, opts) }
		h, err := load()
		if err != nil {
			b.Fatal(err)
		}
		srv, err := devserver.New(h, &devserver.Options{Token: "t", Addr: "127.0.0.1:1", Dirs: []string{dir}, Load: load,
			Session: sdk.Session{ID: "bench", Workspace: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		for i := 0; b.Loop(); i++ {
			edit(i + 1)
			if err := srv.Reload(context.Background(), dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-build", func(b *testing.B) {
		abs, _ := filepath.Abs(dir)
		main := filepath.Join(abs, "main")
		os.MkdirAll(main, 0o755)
		pkg := "github.com/modkit/modkit/internal/devserver/" + filepath.ToSlash(dir)
		os.WriteFile(filepath.Join(main, "main.go"), []byte("package main\n\nimport (\n\tm \""+pkg+
			"\"\n\t\"github.com/modkit/modkit/sdk/serve\"\n)\n\nfunc main() { serve.Main(m.Modkit()) }\n"), 0o644)
		bin := filepath.Join(b.TempDir(), "mod")
		for i := 0; b.Loop(); i++ {
			edit(1000 + i)
			if out, err := exec.Command("go", "build", "-o", bin, "./"+filepath.ToSlash(filepath.Join(dir, "main"))).CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
	})
}

// BenchmarkPage measures the server's part of a first load of the page
// over loopback, with the example mods: the one response, which carries
// the page's script, style and state.
func BenchmarkPage(b *testing.B) {
	dirs := []string{"../../examples/research", "../../examples/dependencies"}
	opts := &host.Options{CacheDir: b.TempDir(), Progress: io.Discard}
	h, err := host.Load(dirs, opts)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	srv, err := devserver.New(h, &devserver.Options{Token: "t", Addr: ts.Listener.Addr().String(), Dirs: dirs,
		Session: sdk.Session{ID: "bench", Workspace: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	defer srv.Close()
	defer ts.Close()
	client := ts.Client()
	for b.Loop() {
		resp, err := client.Get(ts.URL + "/?token=t")
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET /: %d %v", resp.StatusCode, err)
		}
		b.SetBytes(n)
	}
}
