package lab

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

// ModulePath is the hatelab module's import path.
const ModulePath = "github.com/hatelab/hatelab"

// Quick reports quick mode: HATELAB_QUICK set to a true value (1, true,
// yes). `make test` runs every notebook in quick mode; notebooks use it to
// shrink their work (see Pick) so the whole suite stays fast.
func Quick() bool {
	v := os.Getenv("HATELAB_QUICK")
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return v == "yes" || v == "y"
}

// Param returns quick in quick mode and full otherwise, e.g.
// games := lab.Param("random games", 300, 2_000). In quick mode it also
// notes the parameter, by name, for the quick-mode banner, which the first
// output of a notebook session shows above it and a later Param updates:
// a reader sees every parameter the notebook shrank, quick and full.
func Param[T any](name string, quick, full T) T {
	if Quick() {
		noteParam(param{Name: name, Quick: fmt.Sprint(quick), Full: fmt.Sprint(full)})
		return quick
	}
	return full
}

// Pick returns quick in quick mode and full otherwise, and notes nothing:
// for what is not a parameter of the study (a cache's name, a label). A
// parameter, which changes the numbers shown, is chosen with Param, so that
// the quick-mode banner names it.
func Pick[T any](quick, full T) T {
	if Quick() {
		return quick
	}
	return full
}

// RepoRoot returns the root folder of the hatelab checkout: the first
// folder holding hatelab's go.mod above GONB_DIR (a notebook's folder),
// above the working directory, or above this source file.
func RepoRoot() string {
	starts := []string{os.Getenv("GONB_DIR")}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, s := range starts {
		if s == "" {
			continue
		}
		if root := findRoot(s); root != "" {
			return root
		}
	}
	return "."
}

func findRoot(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module "+ModulePath+"\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// RepoPath joins a slash-separated path relative to the repository root,
// e.g. lab.RepoPath("datasets/records/records.jsonl").
func RepoPath(rel string) string {
	return filepath.Join(RepoRoot(), filepath.FromSlash(rel))
}

// figuresDir is where ShowPlot and saveFigure write: HATELAB_FIGURES when
// set (make lab sets it to .lab-notebooks/figures); otherwise, in quick
// mode, figures-quick in the clone's scratch folder (ScratchPath), so that
// a quick run never overwrites the committed figures; and
// only in full mode (`make notebooks`) figures/ at the repository root.
func figuresDir() string {
	if d := os.Getenv("HATELAB_FIGURES"); d != "" {
		return d
	}
	if Quick() {
		return ScratchPath("figures-quick")
	}
	return RepoPath("figures")
}

var scratchOnce = sync.OnceValue(func() string {
	sum := sha256.Sum256([]byte(RepoRoot()))
	return filepath.Join(os.TempDir(), "hatelab-"+hex.EncodeToString(sum[:])[:12])
})

// ScratchDir is this clone's folder for scratch files (quick-mode figures,
// notebooks' caches) under the system's temporary folder:
// hatelab-HASH, HASH from the repository root's path, so that two clones
// running one notebook never share (or clash over) a cache. It is not
// created.
func ScratchDir() string { return scratchOnce() }

// ScratchPath joins a name to ScratchDir, which it creates (mode 0700) when
// missing; an absolute name is returned as it is.
func ScratchPath(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	_ = os.MkdirAll(ScratchDir(), 0o700) // a failure shows when the path is used
	return filepath.Join(ScratchDir(), filepath.FromSlash(name))
}
