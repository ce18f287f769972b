// Command hatelab is the command-line face of the hatelab research lab:
// replaying HATETRIS games, generating moves, encoding replays, exhaustive
// searches of small wells, beam searches, NNUE networks and classic-Tetris agent runs.
//
// Each subcommand lives in its own file and registers itself on rootCmd
// from an init function.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "hatelab",
	Short:         "hatelab: HATETRIS and classic Tetris research tools",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// runtimeError marks a failure that is not the user's input (I/O, a
// checkpoint that cannot be written...). It exits with status 1; every other
// error is treated as bad input and exits with status 2.
type runtimeError struct{ err error }

func (e runtimeError) Error() string { return e.err.Error() }
func (e runtimeError) Unwrap() error { return e.err }

// failure wraps err as a runtime (non-input) failure.
func failure(err error) error {
	if err == nil {
		return nil
	}
	return runtimeError{err}
}

// exitError is an error with its own exit status, which any command may
// return (wrapped or not): main prints its one line and exits with code.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// errInterrupted is the error of a command stopped by Ctrl-C (SIGINT):
// "hatelab: interrupted", exit status 130 (128 + SIGINT, as a shell
// reports a process the signal killed).
var errInterrupted = exitError{130, errors.New("interrupted")}

// interruptible returns a context that the first SIGINT cancels (a second
// one kills the process, as usual) and interrupted, which maps the error
// of the work done under it: once the signal came, any error is
// errInterrupted (context.Canceled, or whatever the stopped work said).
func interruptible() (ctx context.Context, stop func(), interrupted func(error) error) {
	ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop, func(err error) error {
		if err != nil && ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
}

// exitOnInterrupt makes SIGINT end the process at once with the one line
// of errInterrupted and status 130, for work that has no context to
// cancel (nothing to save or clean). The returned function undoes it.
func exitOnInterrupt() (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-c:
			fmt.Fprintln(os.Stderr, "hatelab: "+errInterrupted.Error())
			os.Exit(errInterrupted.code)
		case <-done:
		}
	}()
	return func() { signal.Stop(c); close(done) }
}

// cpuProfile is the --cpuprofile file: a pprof CPU profile of the whole
// command (go tool pprof FILE), for finding where a long run spends its time.
var cpuProfile string

// startProfile starts the CPU profile named by --cpuprofile, if any, and
// returns the function that ends it. The profile goes to a temporary file
// beside the target, renamed over it when the command ends, so that a
// killed run leaves the old file; the target must be a new path, an empty
// file or a CPU profile (a gzip file), never a device, a FIFO or another
// kind of file (see checkProfileTarget).
func startProfile() (stop func(), err error) {
	if cpuProfile == "" {
		return func() {}, nil
	}
	if err := checkProfileTarget(cpuProfile); err != nil {
		return nil, err
	}
	atomicfile.RemoveStale(cpuProfile)
	f, err := os.CreateTemp(filepath.Dir(cpuProfile), "."+filepath.Base(cpuProfile)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			os.Remove(f.Name())
			return
		}
		os.Chmod(f.Name(), 0o644)
		if err := os.Rename(f.Name(), cpuProfile); err != nil {
			os.Remove(f.Name())
		}
	}, nil
}

// checkProfileTarget refuses a --cpuprofile that is not a regular file
// (or a new path), and an existing non-empty file that is not a CPU
// profile (pprof writes gzip: 1f 8b), which it would replace.
func checkProfileTarget(path string) error {
	if err := atomicfile.CheckTarget(path); err != nil {
		return fmt.Errorf("--cpuprofile: %v", err)
	}
	f, _, err := boundedfile.Open(path, math.MaxInt64, "CPU profile")
	if err != nil {
		return nil // a new path (or one the creation will report)
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := io.ReadFull(f, head)
	if n == 0 || n == 2 && head[0] == 0x1f && head[1] == 0x8b {
		return nil
	}
	return fmt.Errorf("--cpuprofile %s: the file exists and is not a CPU profile: refusing to replace it (name a new file)", path)
}

func main() {
	addEngineFlags(rootCmd)
	rootCmd.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file (go tool pprof FILE)")
	stopProfile := func() {}
	rootCmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		stop, err := startProfile()
		if err != nil {
			return err
		}
		stopProfile = stop
		return nil
	}
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	err := rootCmd.Execute()
	stopProfile()
	if err == nil {
		return
	}
	msg := clipLine(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
	fmt.Fprintln(os.Stderr, "hatelab: "+msg)
	var ec exitError
	if errors.As(err, &ec) {
		os.Exit(ec.code)
	}
	var rt runtimeError
	if errors.As(err, &rt) {
		os.Exit(1)
	}
	os.Exit(2)
}
