package classic

import (
	"bufio"
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
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
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
// games played at once). A height listed twice counts once: no game is
// played twice.
func Jobs(rows []int, cols, n int) []Job {
	rs := slices.Clone(rows)
	slices.Sort(rs)
	rs = slices.Compact(rs)
	slices.Reverse(rs)
	var out []Job
	for _, r := range rs {
		for _, s := range SeedsFor(r, n) {
			out = append(out, Job{r, cols, s})
		}
	}
	return out
}

// CheckSweep checks the settings of a sweep command (rows non-empty, seeds
// per height in 1..maxSeeds, an output file, the rules of every height, the
// agent's name) and returns a fresh agent of that name. Its errors are
// one line naming the flag (--rows, --seeds, --out, --agent) or the rules'
// problem.
func CheckSweep(rows []int, cols, seeds, maxSeeds int, agent, out string) (Agent, error) {
	if len(rows) == 0 {
		return nil, errors.New("--rows lists no height")
	}
	if seeds < 1 || seeds > maxSeeds {
		return nil, fmt.Errorf("--seeds %d out of range 1..%d", seeds, maxSeeds)
	}
	if out == "" {
		return nil, errors.New("classic sweep needs --out FILE.csv")
	}
	for _, r := range rows {
		if _, err := NewRules(r, cols); err != nil {
			return nil, fmt.Errorf("--rows: %w", err)
		}
	}
	return NewAgent(agent)
}

// Sweep plays jobs, parallel games at once (0 means all cores), each
// goroutine with its own agent from newAgent, and calls emit for every
// finished game from the calling goroutine, in completion order. Results
// do not depend on parallel; only their order does. No more games than
// jobs are started at once. It stops early when ctx is done or emit fails.
func Sweep(ctx context.Context, jobs []Job, newAgent func() Agent, parallel int,
	emit func(Result) error, rep progress.Reporter) error {
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	parallel = min(parallel, max(len(jobs), 1))
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
	for range parallel {
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

// Limits on the sweep CSVs that ReadCSV and OpenCSV read. A full sweep of
// every height with the most seeds the CLI allows (28 heights x 100,000
// seeds) writes about 110 MB.
const (
	// MaxCSVBytes caps the size of a sweep CSV.
	MaxCSVBytes = 128 << 20
	// MaxCSVLine caps the length of one line (its newline not counted).
	MaxCSVLine = 200
	// MaxAgentName caps the length of an agent's name in a record.
	MaxAgentName = 64
)

// maxCSVBytes is MaxCSVBytes (a variable for tests).
var maxCSVBytes int64 = MaxCSVBytes

// CSVError reports input that is not a well-formed sweep CSV: a missing or
// foreign header, a malformed or duplicate record, a file too large or not
// a regular file. Other errors of ReadCSV and OpenCSV are I/O errors.
type CSVError struct {
	Line int // 1-based line number; 0 when the error is about the whole file
	Msg  string
}

func (e *CSVError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// CSVLine formats a result as one CSV line with its newline.
func CSVLine(r Result) string {
	return fmt.Sprintf("%s,%d,%d,%d,%d,%d\n", r.Agent, r.Rows, r.Cols, r.Seed, r.Pieces, r.Lines)
}

// ReadCSV parses a sweep CSV: the header line CSVHeader, then one record
// per line. A last line without its newline (a write cut short by a kill)
// is ignored if it could be the start of a record. Anything else is a
// *CSVError: an empty input, a first line that is not the header, a
// malformed line, a line longer than MaxCSVLine, more than MaxCSVBytes, or
// two records of the same game (agent, rows, cols and seed), which would
// count it twice.
func ReadCSV(rd io.Reader) ([]Result, error) {
	recs, _, err := scanCSV(rd)
	return recs, err
}

// scanCSV is ReadCSV; it also returns the length of the complete lines (the
// header included), where a partial last line starts.
func scanCSV(rd io.Reader) (recs []Result, complete int64, err error) {
	br := bufio.NewReaderSize(rd, 4096)
	type game struct {
		agent      string
		rows, cols int
		seed       int64
	}
	seen := map[game]int{}
	agents := map[string]string{} // one string per agent name
	for n := 1; ; n++ {
		line, rerr := br.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull || len(line) > MaxCSVLine+1 {
			return nil, 0, &CSVError{n, fmt.Sprintf("longer than %d bytes", MaxCSVLine)}
		}
		if complete+int64(len(line)) > maxCSVBytes {
			return nil, 0, &CSVError{Msg: fmt.Sprintf("larger than %d MiB", maxCSVBytes>>20)}
		}
		if rerr == io.EOF {
			switch {
			case n == 1 && len(line) == 0:
				return nil, 0, &CSVError{Msg: "empty (no header " + CSVHeader + ")"}
			case n == 1:
				return nil, 0, &CSVError{1, "not the header " + CSVHeader + " followed by a newline"}
			case !partialRecord(line):
				return nil, 0, &CSVError{n, fmt.Sprintf("incomplete last line %s is not the start of a record", clip.Quote(string(line)))}
			}
			return recs, complete, nil
		}
		if rerr != nil {
			return nil, 0, rerr
		}
		complete += int64(len(line))
		text := string(line[:len(line)-1])
		if n == 1 {
			if text != CSVHeader {
				return nil, 0, &CSVError{1, "not the header " + CSVHeader}
			}
			continue
		}
		r, perr := parseCSVLine(text)
		if perr != nil {
			return nil, 0, &CSVError{n, perr.Error()}
		}
		if a, ok := agents[r.Agent]; ok {
			r.Agent = a
		} else {
			agents[r.Agent] = r.Agent
		}
		g := game{r.Agent, r.Rows, r.Cols, r.Seed}
		if first, dup := seen[g]; dup {
			return nil, 0, &CSVError{n, fmt.Sprintf("game %s,%d,%d,%d is already on line %d", r.Agent, r.Rows, r.Cols, r.Seed, first)}
		}
		seen[g] = n
		recs = append(recs, r)
	}
}

// partialRecord reports whether b could be the start of a record: agent
// name characters, digits, minus signs and at most 5 commas.
func partialRecord(b []byte) bool {
	commas := 0
	for _, c := range b {
		switch {
		case c == ',':
			commas++
		case !agentChar(c):
			return false
		}
	}
	return commas <= 5
}

// agentChar reports whether c may appear in an agent's name: ASCII letters,
// digits, '-', '_' and '.'.
func agentChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// checkAgentName reports an agent name that a sweep CSV cannot hold: 1 to
// MaxAgentName ASCII letters, digits, '-', '_' or '.'.
func checkAgentName(name string) error {
	if name == "" || len(name) > MaxAgentName || strings.IndexFunc(name, func(c rune) bool { return c > 127 || !agentChar(byte(c)) }) >= 0 {
		return fmt.Errorf("agent %s is not 1 to %d letters, digits, '-', '_' or '.'", clip.Quote(name), MaxAgentName)
	}
	return nil
}

func parseCSVLine(line string) (Result, error) {
	f := strings.Split(line, ",")
	if len(f) != 6 {
		return Result{}, fmt.Errorf("want 6 fields %s, got %s", CSVHeader, clip.Quote(line))
	}
	if err := checkAgentName(f[0]); err != nil {
		return Result{}, err
	}
	var v [5]int64
	for i := range v {
		x, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return Result{}, fmt.Errorf("field %d: %s is not an integer", i+2, clip.Quote(f[i+1]))
		}
		v[i] = x
	}
	if v[0] < MinRows || v[0] > MaxRows || v[1] < MinCols || v[1] > MaxCols || v[3] < 0 || v[4] < 0 {
		return Result{}, fmt.Errorf("value out of range in %s", clip.Quote(line))
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

// OpenCSV opens (or creates) a sweep CSV for appending and reads the
// records already there. A new or empty file gets the header. An existing
// file must be a sweep CSV as ReadCSV reads it (else a *CSVError, and the
// file is left as it was); only a partial last line that could be the start
// of a record, left by a kill in the middle of a write, is cut. A path that
// exists and is not a regular file (a device, a FIFO) is refused.
func OpenCSV(path string) (*CSVWriter, error) {
	f, _, err := boundedfile.OpenRW(path, maxCSVBytes, "sweep CSV", 0o644)
	if boundedfile.IsRefused(err) {
		return nil, &CSVError{Msg: path + " " + err.Error()}
	}
	if err != nil {
		return nil, err
	}
	w, err := openCSV(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

func openCSV(f *os.File, path string) (*CSVWriter, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		if _, err := f.WriteString(CSVHeader + "\n"); err != nil {
			return nil, err
		}
		return &CSVWriter{f: f}, nil
	}
	done, complete, err := scanCSV(f)
	if err != nil {
		if ce, ok := err.(*CSVError); ok {
			return nil, &CSVError{Msg: fmt.Sprintf("%s is not a sweep CSV (left as it is): %v", path, ce)}
		}
		return nil, err
	}
	if complete < fi.Size() {
		if err := f.Truncate(complete); err != nil {
			return nil, err
		}
	}
	if _, err := f.Seek(complete, io.SeekStart); err != nil {
		return nil, err
	}
	return &CSVWriter{f: f, Done: done}, nil
}

// Write appends one record. A record that ReadCSV could not read back (an
// agent name with other characters than checkAgentName allows, a size out of
// range) is refused, so that the file stays readable.
func (w *CSVWriter) Write(r Result) error {
	line := CSVLine(r)
	if _, err := parseCSVLine(line[:len(line)-1]); err != nil {
		return fmt.Errorf("sweep CSV: cannot write %v", err)
	}
	_, err := w.f.WriteString(line)
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
