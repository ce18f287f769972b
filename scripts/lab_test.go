//go:build linux

package scripts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// labEnv is the environment lab.sh runs in for the tests: Jupyter's data,
// config and runtime folders and TMPDIR under dir, so that a test touches
// none of the user's, and no PORT, TOKEN or JUPYTER_TOKEN from outside.
func labEnv(dir string, vars ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PORT", "TOKEN", "JUPYTER_TOKEN", "JUPYTER_TOKEN_FILE", "LAB_CHECK_ONLY", "LAB_LOG", "LAB_DIR", "LAB_COPY_ONLY", "HATELAB_QUICK", "LAB_WARM_GOPLS",
			"JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "TMPDIR":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "JUPYTER_DATA_DIR="+filepath.Join(dir, "data"), "JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "run"), "TMPDIR="+dir, "LAB_LOG="+filepath.Join(dir, "lab.log"),
		"LAB_DIR="+filepath.Join(dir, "lab-notebooks"), "LAB_WARM_GOPLS=0")
	return append(env, vars...)
}

// needTools skips the test without bash or /usr/bin/python3.
func needTools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
}

// busyPort listens on a free port of 127.0.0.1 until the test ends.
func busyPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// runScript runs command (lab.sh by default) and returns its exit status,
// standard output and standard error.
func runScript(t *testing.T, env []string, command ...string) (int, string, string) {
	t.Helper()
	if len(command) == 0 {
		command = []string{"bash", "lab.sh"}
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// TestLabChecks runs lab.sh's checks without starting Jupyter
// (LAB_CHECK_ONLY=1): bad PORT and TOKEN values, a busy port, a short
// token and a token on an ancestor's command line.
func TestLabChecks(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	busy := strconv.Itoa(busyPort(t))
	free := strconv.Itoa(freePort(t))
	long := "abcdefghijklmnopqrstuvwxyz012345"
	tests := []struct {
		name    string
		vars    []string
		command []string
		code    int
		stderr  []string // one expected line each, in order (nil: none)
	}{
		{"port not a number", []string{"PORT=abc"}, nil, 2, []string{"lab: PORT=abc is not a port number (1..65535, decimal)"}},
		{"port with a leading zero", []string{"PORT=08888"}, nil, 2, []string{"lab: PORT=08888 is not a port number"}},
		{"port too large", []string{"PORT=70000"}, nil, 2, []string{"lab: PORT=70000 is not a port number"}},
		{"port 0", []string{"PORT=0"}, nil, 2, []string{"lab: PORT=0 is not a port number"}},
		{"huge port is cut", []string{"PORT=" + strings.Repeat("9", 5000)}, nil, 2, []string{"lab: PORT=99999999999999999999 is not a port number"}},
		{"token with a space", []string{"PORT=" + free, "TOKEN=a b"}, nil, 2, []string{"lab: TOKEN may hold only letters"}},
		{"token with a quote", []string{"PORT=" + free, "TOKEN=abc'defghijklmnopq"}, nil, 2, []string{"lab: TOKEN may hold only letters"}},
		{"huge token", []string{"PORT=" + free, "TOKEN=" + strings.Repeat("a", 300)}, nil, 2, []string{"lab: TOKEN is 300 characters long; at most 256"}},
		{"busy port", []string{"PORT=" + busy}, nil, 1, []string{"lab: port " + busy + " on 127.0.0.1 is already in use"}},
		{"short token warned, busy port", []string{"PORT=" + busy, "TOKEN=short"}, nil, 1,
			[]string{"lab: warning: TOKEN is only 5 characters long", "lab: port " + busy + " on 127.0.0.1 is already in use"}},
		{"short token warned", []string{"PORT=" + free, "TOKEN=short", "LAB_CHECK_ONLY=1"}, nil, 0, []string{"lab: warning: TOKEN is only 5 characters long"}},
		{"good token", []string{"PORT=" + free, "TOKEN=" + long, "LAB_CHECK_ONLY=1"}, nil, 0, nil},
		{"random token", []string{"PORT=" + free, "LAB_CHECK_ONLY=1"}, nil, 0, nil},
		{"token on a parent's command line", []string{"PORT=" + free, "TOKEN=" + long, "LAB_CHECK_ONLY=1"},
			[]string{"bash", "-c", "bash lab.sh; exit $?", long}, 0, []string{"lab: warning: the token is on the command line of process"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runScript(t, labEnv(dir, tc.vars...), tc.command...)
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if stderr == "" {
				lines = nil
			}
			if code != tc.code || stdout != "" || len(lines) != len(tc.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %.500q; want exit %d and %d stderr lines", code, stdout, stderr, tc.code, len(tc.stderr))
			}
			for i, want := range tc.stderr {
				if !strings.HasPrefix(lines[i], want) || len(lines[i]) > 300 {
					t.Errorf("stderr line %d %.400q; want a short line starting %q", i+1, lines[i], want)
				}
				if strings.Contains(lines[i], long) {
					t.Errorf("stderr line %d shows the token", i+1)
				}
			}
		})
	}
}

// TestLabCopies checks that the lab serves working copies: a missing copy
// is made, a newer one the user saved is left alone, an older one is
// replaced with the user's kept beside it, and a line says each.
func TestLabCopies(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	work := filepath.Join(dir, "lab-notebooks")
	committed, err := filepath.Glob("../notebooks/*.ipynb")
	if err != nil || len(committed) < 2 {
		t.Fatalf("committed notebooks: %v %v", committed, err)
	}
	env := labEnv(dir, "PORT="+strconv.Itoa(freePort(t)), "LAB_COPY_ONLY=1")
	steps := []struct {
		name    string
		prepare func()
		stderr  []string // lines expected, by prefix
		kept    int      // NAME.ipynb.~N~ backups expected in all
	}{
		{"first start copies all", func() {}, []string{"lab: full mode: ", fmt.Sprintf("lab: %d notebooks copied from notebooks/ into %s", len(committed), work)}, 0},
		{"second start copies none", func() {}, []string{"lab: full mode: "}, 0},
		{"a copy the user saved later is kept", func() {
			now := time.Now().Add(time.Hour)
			must(t, os.Chtimes(filepath.Join(work, filepath.Base(committed[0])), now, now))
		}, []string{"lab: full mode: "}, 0},
		{"an older copy is replaced and kept", func() {
			old := time.Now().Add(-100 * 365 * 24 * time.Hour)
			must(t, os.WriteFile(filepath.Join(work, filepath.Base(committed[1])), []byte("mine"), 0o644))
			must(t, os.Chtimes(filepath.Join(work, filepath.Base(committed[1])), old, old))
		}, []string{"lab: full mode: ", "lab: notebooks/" + filepath.Base(committed[1]) + " is newer than your working copy"}, 1},
		{"a missing copy is made again", func() {
			must(t, os.Remove(filepath.Join(work, filepath.Base(committed[0]))))
		}, []string{"lab: full mode: ", "lab: 1 notebooks copied"}, 1},
	}
	for _, st := range steps {
		st.prepare()
		code, stdout, stderr := runScript(t, env)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if stderr == "" {
			lines = nil
		}
		if code != 0 || stdout != "" || len(lines) != len(st.stderr) {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q; want 0 and %d lines", st.name, code, stdout, stderr, len(st.stderr))
		}
		for i, want := range st.stderr {
			if !strings.HasPrefix(lines[i], want) {
				t.Errorf("%s: stderr line %q, want one starting %q", st.name, lines[i], want)
			}
		}
		for _, nb := range committed {
			if _, err := os.Stat(filepath.Join(work, filepath.Base(nb))); err != nil {
				t.Errorf("%s: %v", st.name, err)
			}
		}
		if kept, _ := filepath.Glob(filepath.Join(work, "*.~*~")); len(kept) != st.kept {
			t.Errorf("%s: %d older copies kept (%q), want %d", st.name, len(kept), kept, st.kept)
		}
	}
	if b, err := os.ReadFile(filepath.Join(work, filepath.Base(committed[1])+".~1~")); err != nil || string(b) != "mine" {
		t.Errorf("the user's older copy: %q, %v; want %q", b, err, "mine")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLabServer starts the lab for real on a free port with a token from
// the environment, then checks: the URL printed is the one Jupyter
// reports, with the token; no process's command line holds the token; the
// token file is gone; the token is required; there are no terminals; a
// second lab on the same port is refused with one line. It stops the server
// with SIGTERM.
func TestLabServer(t *testing.T) {
	needTools(t)
	if testing.Short() {
		t.Skip("starts Jupyter")
	}
	if _, err := exec.LookPath("jupyter-notebook"); err != nil {
		t.Skip("no jupyter-notebook")
	}
	dir := t.TempDir()
	port := strconv.Itoa(freePort(t))
	token := "Tok-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-abcdefghij"
	cmd := exec.Command("bash", "lab.sh")
	cmd.Env = labEnv(dir, "PORT="+port, "TOKEN="+token)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-exited
			}
		})
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, stdout)
		exited <- cmd.Wait()
	}()
	defer stop()

	var url string
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatalf("lab.sh ended without a URL; stderr:\n%s", stderr.String())
		}
		url = line
	case <-time.After(90 * time.Second):
		t.Fatalf("no URL after 90 s; stderr:\n%s", stderr.String())
	}
	want := "lab: open http://127.0.0.1:" + port + "/tree?token=" + token + "  (Ctrl-C twice to stop)"
	if url != want {
		t.Fatalf("printed %q, want %q", url, want)
	}
	// The terminal stays quiet: Jupyter's log goes to LAB_LOG, named once.
	if log, _ := os.ReadFile(filepath.Join(dir, "lab.log")); !strings.Contains(string(log), "http://127.0.0.1:"+port+"/") {
		t.Errorf("Jupyter's log does not report port %s:\n%s", port, log)
	}
	// The first start also says where the working copies are (TestLabCopies).
	committed, _ := filepath.Glob("../notebooks/*.ipynb")
	if got := stderr.String(); !strings.HasSuffix(got, "\nlab: Jupyter's log (and the kernels'): "+filepath.Join(dir, "lab.log")+"\n") ||
		!strings.HasPrefix(got, "lab: full mode: the parameters behind the committed numbers") ||
		!strings.Contains(got, fmt.Sprintf("\nlab: %d notebooks copied from notebooks/ into %s", len(committed), filepath.Join(dir, "lab-notebooks"))) || strings.Count(got, "\n") != 3 {
		t.Errorf("stderr %q: want the mode's line, the copies' line and the log's path", got)
	}

	// No command line holds the token (what ps shows to every user).
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(token)) {
			t.Errorf("%s holds the token: %q", p, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		}
	}
	// The token file is gone once the server runs.
	if left, _ := filepath.Glob(filepath.Join(dir, "hatelab-lab-token.*")); len(left) > 0 {
		t.Errorf("token file left: %v", left)
	}

	base := "http://127.0.0.1:" + port
	status := func(path string) int {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/api/status?token=" + token); got != http.StatusOK {
		t.Errorf("with the token: HTTP %d", got)
	}
	if got := status("/api/status"); got != http.StatusForbidden {
		t.Errorf("without the token: HTTP %d, want 403", got)
	}
	if got := status("/api/status?token=wrong" + token); got != http.StatusForbidden {
		t.Errorf("with a wrong token: HTTP %d, want 403", got)
	}
	if got := status("/api/terminals?token=" + token); got != http.StatusNotFound {
		t.Errorf("terminals: HTTP %d, want 404 (disabled)", got)
	}

	// A second lab on the same port is refused, before Jupyter starts.
	code, out, errOut := runScript(t, labEnv(dir, "PORT="+port))
	if code != 1 || out != "" || errOut != fmt.Sprintf("lab: port %s on 127.0.0.1 is already in use; choose another (PORT=9000 make lab)\n", port) {
		t.Errorf("second lab: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	stop()
	if b, err := os.ReadDir(dir); err == nil {
		for _, e := range b {
			if strings.HasPrefix(e.Name(), "hatelab-lab-token.") {
				t.Errorf("token file %s left after exit", e.Name())
			}
		}
	}
}

// TestLabModes checks that the lab says which mode it is in, and that quick
// mode has working copies of its own: a full-mode session never opens a
// notebook saved with quick-mode numbers.
func TestLabModes(t *testing.T) {
	needTools(t)
	dir := t.TempDir()
	for _, c := range []struct{ quick, line, folder string }{
		{"", "lab: full mode: ", "full"},
		{"1", "lab: quick mode (HATELAB_QUICK=1): ", "quick"},
		{"yes", "lab: quick mode (HATELAB_QUICK=1): ", "quick"},
		{"0", "lab: full mode: ", "full"},
	} {
		// LAB_DIR unset: the default folders are the root's; ROOT is a copy
		// of scripts/ here, so that the test writes nothing into the clone.
		root := filepath.Join(dir, c.folder+c.quick)
		must(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must(t, os.MkdirAll(filepath.Join(root, "notebooks"), 0o755))
		b, err := os.ReadFile("lab.sh")
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, "scripts", "lab.sh"), b, 0o755))
		must(t, os.WriteFile(filepath.Join(root, "notebooks", "x.ipynb"), []byte("{}"), 0o644))
		var env []string
		for _, kv := range labEnv(dir, "PORT="+strconv.Itoa(freePort(t)), "LAB_COPY_ONLY=1", "HATELAB_QUICK="+c.quick) {
			if !strings.HasPrefix(kv, "LAB_DIR=") {
				env = append(env, kv)
			}
		}
		cmd := exec.Command("bash", filepath.Join(root, "scripts", "lab.sh"))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), c.line) {
			t.Errorf("HATELAB_QUICK=%q: %v, output %q, want it to start %q", c.quick, err, out, c.line)
		}
		want := map[string]string{"full": ".lab-notebooks", "quick": ".lab-notebooks-quick"}[c.folder]
		if _, err := os.Stat(filepath.Join(root, want, "x.ipynb")); err != nil {
			t.Errorf("HATELAB_QUICK=%q: no working copy in %s: %v", c.quick, want, err)
		}
	}
}
