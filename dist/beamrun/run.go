package beamrun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs:// paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // file paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"    // s3:// paths
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow" // --runner dataflow
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"    // --runner flink
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"      // --runner prism (default)
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"    // --runner spark
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/hatelab/hatelab/engine/arena"
)

// Runner says where pipelines run. The zero value runs them in process on
// Prism.
type Runner struct {
	// Name is the Beam runner: prism (default), universal (any portable
	// job server: a standalone Prism, Flink's or Spark's), flink, spark or
	// dataflow.
	Name string
	// Endpoint is the job server (host:port); empty with prism: an
	// in-process one.
	Endpoint string
	// EnvironmentType and EnvironmentConfig say where the Go workers run:
	// LOOPBACK (in this process), EXTERNAL with the address of a worker
	// pool (WorkerPool), or DOCKER/PROCESS.
	EnvironmentType, EnvironmentConfig string
	// Options are more Beam flags, name=value (e.g. project=...,
	// region=..., staging_location=gs://... for Dataflow).
	Options []string
	// Log, if set, receives Beam's and Prism's log lines (nil: dropped).
	Log io.Writer
}

var (
	flagMu    sync.Mutex
	inProcess string // the endpoint of the in-process Prism server, once started
)

// Execute builds nothing: it runs p on r's runner and waits for it.
func (r Runner) Execute(ctx context.Context, p *beam.Pipeline) error {
	flagMu.Lock()
	defer flagMu.Unlock()
	setupLogging(r.Log)
	set := func(name, v string) error {
		if err := flag.Set(name, v); err != nil {
			return fmt.Errorf("beam option %s=%s: %v", name, v, err)
		}
		return nil
	}
	name := r.Name
	if name == "" {
		name = "prism"
	}
	endpoint, envType := r.Endpoint, r.EnvironmentType
	if name == "prism" && endpoint == "" && inProcess != "" && (envType == "" || strings.EqualFold(envType, "loopback")) {
		// Reuse the in-process Prism server of the first pipeline.
		endpoint, envType = inProcess, "loopback"
	}
	if err := set("endpoint", endpoint); err != nil {
		return err
	}
	if err := set("environment_type", envType); err != nil {
		return err
	}
	if err := set("environment_config", r.EnvironmentConfig); err != nil {
		return err
	}
	// The workers run this very binary (a worker pool of it, or a
	// process a runner starts): no cross-compiling.
	if exe, err := os.Executable(); err == nil && flag.Lookup("worker_binary").Value.String() == "" {
		if err := set("worker_binary", exe); err != nil {
			return err
		}
	}
	for _, o := range r.Options {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			return fmt.Errorf("beam option %q: want name=value", o)
		}
		if err := set(k, v); err != nil {
			return err
		}
	}
	var err error
	if name == "prism" {
		_, err = prism.Execute(ctx, p)
		if endpoint == "" && (envType == "" || strings.EqualFold(envType, "loopback")) {
			inProcess = flag.Lookup("endpoint").Value.String()
		}
	} else {
		_, err = beam.Run(ctx, name, p)
	}
	return err
}

// quietLogger drops Beam's log lines or writes them to w.
type quietLogger struct{ w io.Writer }

func (l quietLogger) Log(ctx context.Context, sev beamlog.Severity, calldepth int, msg string) {
	if l.w != nil {
		fmt.Fprintf(l.w, "%d %s\n", sev, msg)
	}
}

func setupLogging(w io.Writer) {
	beamlog.SetLogger(quietLogger{w})
	out := w
	if out == nil {
		out = io.Discard
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelInfo})))
}

// Init must be called at the start of main, after flags are parsed and
// before any pipeline is built: in a worker process started by a runner
// it runs the worker harness instead (and exits).
func Init() { beam.Init() }

// WorkerPool serves a Go worker pool on port (0: any), for runners given
// EnvironmentType EXTERNAL and EnvironmentConfig host:port: each worker
// the runner asks for runs in this process, with the functions this
// binary registers. It returns the address and a stop function.
func WorkerPool(ctx context.Context, port int, log io.Writer) (addr string, stop func(), err error) {
	setupLogging(log)
	lb, err := extworker.StartLoopback(ctx, port)
	if err != nil {
		return "", nil, err
	}
	return lb.EnvironmentConfig(ctx), func() { lb.Stop(ctx) }, nil
}

// errBadInput marks errors of the user's input.
var errBadInput = errors.New("bad input")

type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, errBadInput} }

func inputErrorf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }

// IsInput reports whether err comes from bad input (exit status 2): this
// package's, or a match file the arena refuses (arena.InputError).
func IsInput(err error) bool {
	var ie *arena.InputError
	return errors.Is(err, errBadInput) || errors.As(err, &ie)
}

// JobServer starts a standalone Prism job server on port (as Beam's
// cmd/prism does, without its web UI), for Runner{Name: "universal",
// Endpoint: "localhost:port"}. It runs until ctx is done.
func JobServer(ctx context.Context, port int, log io.Writer) error {
	setupLogging(log)
	_, err := prism.CreateJobServer(ctx, prism.Options{Port: port})
	return err
}
