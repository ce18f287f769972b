package classic

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hatelab/hatelab/engine/progress"
)

// Job is one game of a sweep.
type Job struct {
	Rows, Cols int
	Seed       int64
}

// SeedsFor returns tetr-ai's documented seeds for a height: rows*1000 ..
// rows*1000+n-1.
func SeedsFor(rows, n int) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = int64(rows*1000 + i)
	}
	return s
}

// Jobs lists the games of a sweep over heights with n documented seeds each,
// tallest heights first (their games are the longest, which balances the
// workers).
func Jobs(rows []int, cols, n int) []Job {
	rs := slices.Clone(rows)
	slices.Sort(rs)
	slices.Reverse(rs)
	var out []Job
	for _, r := range rs {
		for _, s := range SeedsFor(r, n) {
			out = append(out, Job{r, cols, s})
		}
	}
	return out
}

// Sweep plays jobs on workers goroutines (0 means all cores), each with
// its own agent from newAgent, and calls emit for every finished game from
// the calling goroutine, in completion order. Results do not depend on the
// number of workers; only their order does. It stops early when ctx is done
// or emit fails.
func Sweep(ctx context.Context, jobs []Job, newAgent func() Agent, workers int,
	emit func(Result) error, rep progress.Reporter) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rep = progress.Or(rep)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rules := map[[2]int]*Rules{}
	for _, j := range jobs {
		k := [2]int{j.Rows, j.Cols}
		if rules[k] == nil {
			r, err := NewRules(j.Rows, j.Cols)
			if err != nil {
				return err
			}
			rules[k] = r
		}
	}
	in := make(chan Job)
	out := make(chan Result)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := newAgent()
			for j := range in {
				res := Play(rules[[2]int{j.Rows, j.Cols}], a, j.Seed, 0)
				select {
				case out <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range jobs {
			select {
			case in <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	var done, lines int64
	total := int64(len(jobs))
	var err error
	for res := range out {
		if err != nil {
			continue
		}
		if err = emit(res); err != nil {
			cancel()
			continue
		}
		done++
		lines += res.Lines
		rep.Report(progress.Event{Job: "classic sweep", Stage: fmt.Sprintf("rows %d", res.Rows),
			Done: done, Total: total, Unit: "games", Info: fmt.Sprintf("%d lines", lines)})
	}
	rep.Report(progress.Event{Job: "classic sweep", Done: done, Total: total, Unit: "games", Finished: true})
	if err != nil {
		return err
	}
	return ctx.Err()
}

// CSVHeader is the header line of sweep CSV files.
const CSVHeader = "agent,rows,cols,seed,pieces,lines"

// CSVLine formats a result as one CSV line with its newline.
func CSVLine(r Result) string {
	return fmt.Sprintf("%s,%d,%d,%d,%d,%d\n", r.Agent, r.Rows, r.Cols, r.Seed, r.Pieces, r.Lines)
}

// ReadCSV parses sweep records. A last line without its newline (a write
// cut short by a kill) is ignored; any other malformed line is an error.
func ReadCSV(rd io.Reader) ([]Result, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		data = data[:i+1]
	}
	var out []Result
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line == CSVHeader {
			continue
		}
		r, err := parseCSVLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

func parseCSVLine(line string) (Result, error) {
	f := strings.Split(line, ",")
	if len(f) != 6 || f[0] == "" {
		return Result{}, fmt.Errorf("want 6 fields %q, got %q", CSVHeader, line)
	}
	var v [5]int64
	for i := range v {
		x, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return Result{}, fmt.Errorf("field %d: %w", i+2, err)
		}
		v[i] = x
	}
	if v[0] < MinRows || v[0] > MaxRows || v[1] < MinCols || v[1] > MaxCols || v[3] < 0 || v[4] < 0 {
		return Result{}, fmt.Errorf("value out of range in %q", line)
	}
	return Result{Agent: f[0], Rows: int(v[0]), Cols: int(v[1]), Seed: v[2], Pieces: v[3], Lines: v[4]}, nil
}

// CSVWriter appends sweep records to a file, one complete line per write,
// so a killed sweep leaves at most one partial last line, which OpenCSV
// drops on restart.
type CSVWriter struct {
	f *os.File
	// Done holds the records already in the file.
	Done []Result
}

// OpenCSV opens (or creates) a sweep CSV for appending, reading the records
// already there and cutting a partial last line.
func OpenCSV(path string) (*CSVWriter, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	keep := len(data)
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		keep = i + 1
	}
	done, err := ReadCSV(bytes.NewReader(data[:keep]))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Truncate(int64(keep)); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(int64(keep), io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	w := &CSVWriter{f: f, Done: done}
	if keep == 0 {
		if _, err := f.WriteString(CSVHeader + "\n"); err != nil {
			f.Close()
			return nil, err
		}
	}
	return w, nil
}

// Write appends one record.
func (w *CSVWriter) Write(r Result) error {
	_, err := w.f.WriteString(CSVLine(r))
	return err
}

// Close syncs and closes the file.
func (w *CSVWriter) Close() error {
	return errors.Join(w.f.Sync(), w.f.Close())
}

// Remaining drops the jobs whose (agent, rows, cols, seed) is in done.
func Remaining(jobs []Job, agent string, done []Result) []Job {
	seen := map[Job]bool{}
	for _, r := range done {
		if r.Agent == agent {
			seen[Job{r.Rows, r.Cols, r.Seed}] = true
		}
	}
	var out []Job
	for _, j := range jobs {
		if !seen[j] {
			out = append(out, j)
		}
	}
	return out
}
