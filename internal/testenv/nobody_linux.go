package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Nobody is the user an unprivileged run of a test is made as: uid and
// gid 65534, as on Debian and Fedora.
const Nobody = 65534

// RunAsNobody runs the tests run names (a -test.run pattern) of this test
// binary again as [Nobody], from a copy in dir, beneath the temporary
// directory, in workDir (dir when ""), with env added, and returns its
// output. It fails t when the run fails, and skips t where other users
// cannot reach the temporary directory. The caller runs as root.
func RunAsNobody(t *testing.T, dir, workDir, run string, env ...string) string {
	t.Helper()
	if fi, err := os.Stat(os.TempDir()); err != nil || fi.Mode().Perm()&0o001 == 0 {
		t.Skipf("the temporary directory %s is closed to other users, so the nobody user could not run the test's copy", os.TempDir())
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary's directory is root's: run a copy every user reads.
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(self))
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	OpenToOthers(dir)
	if workDir == "" {
		workDir = dir
	}
	cmd := exec.Command(bin, "-test.run="+run, "-test.v")
	cmd.Dir = workDir
	cmd.Env = append(append(os.Environ(), env...), "HOME=/")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s as nobody: %v\n%s", run, err, out)
	}
	return string(out)
}

// OpenToOthers lets every user reach dir: it and the directories above
// it, up to the temporary directory, get mode 0755.
func OpenToOthers(dir string) {
	for d := dir; d != "/" && d != os.TempDir() && d != "."; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
}
