package bfs

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// SummaryHeader is the header of the summary tables in datasets/bfs. The
// columns max_width and max_width_depth (the blog's terms) hold
// Row.PeakStates and Row.PeakLevel.
var SummaryHeader = []string{"width", "height", "rule", "score", "length", "max_width", "max_width_depth",
	"unbounded", "states", "children", "seconds", "peak_rss_bytes", "workers"}

// LevelsHeader is the header of the per-level tables in
// datasets/bfs/levels (one row per level, from level 0): the column depth
// holds Level.Level, then States, Children and BestScore.
var LevelsHeader = []string{"depth", "states", "children", "best_score"}

// WriteLevels writes the levels of a search as a per-level table (CSV,
// LevelsHeader first), the format of datasets/bfs/levels.
func WriteLevels(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	cw.Write(LevelsHeader)
	for _, l := range res.Levels {
		cw.Write([]string{strconv.Itoa(l.Level), strconv.FormatInt(l.States, 10), strconv.FormatInt(l.Children, 10), strconv.Itoa(l.BestScore)})
	}
	cw.Flush()
	return cw.Error()
}

// ReadLevels parses a per-level table (LevelsHeader, then one row per
// level from level 0 on, in order), the format WriteLevels writes. A
// malformed table is refused with one line naming the line and the problem.
func ReadLevels(r io.Reader) ([]Level, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(LevelsHeader)
	head, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("bfs: levels: empty")
	}
	if err != nil {
		return nil, fmt.Errorf("bfs: levels: %w", err)
	}
	if !slices.Equal(head, LevelsHeader) {
		return nil, fmt.Errorf("bfs: levels: header %q, want %q", head, LevelsHeader)
	}
	var levels []Level
	bits := [4]int{32, 64, 64, 32} // level and best score fit an int on every platform
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bfs: levels: %w", err)
		}
		line, _ := cr.FieldPos(0)
		var v [4]int64
		for i, f := range rec {
			x, err := strconv.ParseInt(f, 10, bits[i])
			if err == nil && x < 0 {
				err = fmt.Errorf("%s %d is negative", LevelsHeader[i], x)
			}
			if err != nil {
				return nil, fmt.Errorf("bfs: levels line %d: %w", line, err)
			}
			v[i] = x
		}
		l := Level{Level: int(v[0]), States: v[1], Children: v[2], BestScore: int(v[3])}
		if l.Level != len(levels) {
			return nil, fmt.Errorf("bfs: levels line %d: level %d, want %d (levels in order from 0)", line, l.Level, len(levels))
		}
		levels = append(levels, l)
	}
	if len(levels) == 0 {
		return nil, errors.New("bfs: levels: no level 0")
	}
	return levels, nil
}

// Row is one line of a summary table: one complete search.
type Row struct {
	Width, Height int
	Rule          Rule
	// Score and Length are -1 when Unbounded.
	Score, Length int
	// PeakStates (column max_width) is the number of states of the largest
	// level, PeakLevel (column max_width_depth) that level.
	PeakStates int64
	PeakLevel  int
	Unbounded  bool
	// States and Children are the totals over all levels.
	States, Children int64
	Seconds          float64
	PeakRSS          int64
	Workers          int
}

// RowOf summarises a result.
func RowOf(res *Result, workers int) Row {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	r := Row{Width: res.Width, Height: res.Height, Rule: res.Rule, Score: res.Score, Length: res.Length,
		PeakStates: res.PeakStates, PeakLevel: res.PeakLevel, Unbounded: res.Unbounded,
		States: res.Expanded, Children: res.Children, Seconds: res.Seconds, PeakRSS: res.PeakRSS, Workers: workers}
	if res.Unbounded {
		r.Score, r.Length = -1, -1
	}
	return r
}

func (r Row) record() []string {
	return []string{strconv.Itoa(r.Width), strconv.Itoa(r.Height), r.Rule.String(), strconv.Itoa(r.Score),
		strconv.Itoa(r.Length), strconv.FormatInt(r.PeakStates, 10), strconv.Itoa(r.PeakLevel),
		strconv.FormatBool(r.Unbounded), strconv.FormatInt(r.States, 10), strconv.FormatInt(r.Children, 10),
		strconv.FormatFloat(r.Seconds, 'f', 3, 64), strconv.FormatInt(r.PeakRSS, 10), strconv.Itoa(r.Workers)}
}

// AppendSummary appends the result's row to a summary CSV, writing the
// header first if the file is new or empty. A truncated search is refused.
func AppendSummary(path string, res *Result, workers int) error {
	if res.Truncated {
		return fmt.Errorf("bfs: a truncated search has no summary row")
	}
	old, err := readSummaryBytes(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Write(old)
	w := csv.NewWriter(&buf)
	if len(old) == 0 {
		w.Write(SummaryHeader)
	}
	w.Write(RowOf(res, workers).record())
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, 0o644, buf.Bytes())
}

// maxSummaryFile bounds the size of a summary CSV read.
const maxSummaryFile = 64 << 20

// CheckSummaryFile checks, before a search, that path can take a summary
// row: absent (its folder writable), or a summary CSV (a regular file
// that ReadSummary reads, ending with a newline). Its errors wrap
// ErrInput and leave the file as it is.
func CheckSummaryFile(path string) error {
	if _, err := readSummaryBytes(path); err != nil {
		return err
	}
	return CheckWritable(path)
}

// readSummaryBytes returns the content of the summary CSV path (nil if
// it does not exist), checked as CheckSummaryFile says.
func readSummaryBytes(path string) ([]byte, error) {
	b, err := boundedfile.ReadFile(path, maxSummaryFile, "summary CSV")
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case boundedfile.IsRefused(err):
		return nil, inputErrorf("bfs: %s %v (left as it is)", path, err)
	case err != nil:
		return nil, inputError{fmt.Errorf("bfs: %w", err)}
	}
	if len(b) == 0 {
		return nil, nil
	}
	if _, err := ReadSummary(bytes.NewReader(b)); err != nil || b[len(b)-1] != '\n' {
		why := "no newline at the end"
		if err != nil {
			why = err.Error()
		}
		return nil, inputErrorf("bfs: %s is not a summary CSV (left as it is): %s", path, why)
	}
	return b, nil
}

// CheckWritable checks, before a search, that a file can be written at
// path: not a folder nor a device, its folder writable (a file is created
// there and removed). Its errors wrap ErrInput.
func CheckWritable(path string) error {
	if st, err := os.Stat(path); err == nil {
		if err := boundedfile.Check(st, math.MaxInt64, "file"); err != nil {
			return inputErrorf("bfs: %s %v", path, err)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".hatelab-check-*")
	if err != nil {
		return inputErrorf("bfs: cannot write %s: %v", path, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// ReadSummary parses a summary CSV (the header must match SummaryHeader).
func ReadSummary(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("bfs: summary: %w", err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("bfs: summary: empty")
	}
	for i, h := range SummaryHeader {
		if i >= len(recs[0]) || recs[0][i] != h {
			return nil, fmt.Errorf("bfs: summary: header %v, want %v", recs[0], SummaryHeader)
		}
	}
	rows := make([]Row, 0, len(recs)-1)
	for n, rec := range recs[1:] {
		var r Row
		var errs []error
		atoi := func(s string) int { v, err := strconv.Atoi(s); errs = append(errs, err); return v }
		atoi64 := func(s string) int64 { v, err := strconv.ParseInt(s, 10, 64); errs = append(errs, err); return v }
		r.Width, r.Height = atoi(rec[0]), atoi(rec[1])
		rule, err := ParseRule(rec[2])
		errs = append(errs, err)
		r.Rule = rule
		r.Score, r.Length = atoi(rec[3]), atoi(rec[4])
		r.PeakStates, r.PeakLevel = atoi64(rec[5]), atoi(rec[6])
		r.Unbounded, err = strconv.ParseBool(rec[7])
		errs = append(errs, err)
		r.States, r.Children = atoi64(rec[8]), atoi64(rec[9])
		r.Seconds, err = strconv.ParseFloat(rec[10], 64)
		errs = append(errs, err)
		r.PeakRSS, r.Workers = atoi64(rec[11]), atoi(rec[12])
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("bfs: summary line %d: %w", n+2, e)
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// ReadSummaryFile reads a summary CSV file.
func ReadSummaryFile(path string) ([]Row, error) {
	b, err := boundedfile.ReadFile(path, maxSummaryFile, "summary CSV")
	if boundedfile.IsRefused(err) {
		return nil, inputErrorf("bfs: %s %v", path, err)
	}
	if err != nil {
		return nil, err
	}
	return ReadSummary(bytes.NewReader(b))
}

// GameRecord is one line of datasets/bfs/games.jsonl: a game rebuilt from
// a search's levels (`hatelab bfs-replay --json`), from the empty well.
type GameRecord struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Rule   string `json:"rule"`
	Score  int    `json:"score"`
	Length int    `json:"length"`
	Pieces string `json:"pieces"`
	Replay string `json:"replay"`
	Target string `json:"target"` // "longest" or "score"
}

// ReadGames parses a games JSONL file.
func ReadGames(r io.Reader) ([]GameRecord, error) {
	dec := json.NewDecoder(r)
	var gs []GameRecord
	for {
		var g GameRecord
		if err := dec.Decode(&g); err == io.EOF {
			return gs, nil
		} else if err != nil {
			return nil, fmt.Errorf("bfs: games: %w", err)
		}
		gs = append(gs, g)
	}
}

// Game replays the record's keys from the empty well and checks them
// against its score, length and pieces.
func (gr GameRecord) Game() (*Game, error) {
	rule, err := ParseRule(gr.Rule)
	if err != nil {
		return nil, err
	}
	rules, err := NewRules(gr.Width, gr.Height, rule)
	if err != nil {
		return nil, err
	}
	gm := hatetris.NewGame(rules, hatetris.Mild)
	if err := gm.PressAll(gr.Replay); err != nil {
		return nil, err
	}
	g := &Game{Width: gr.Width, Height: gr.Height, Rule: rule, Keys: gr.Replay, Score: gm.Score, Length: gm.Placed()}
	g.Wells = append(g.Wells, hatetris.Well{})
	g.Scores = append(g.Scores, 0)
	for _, st := range gm.Steps {
		g.Pieces = append(g.Pieces, st.Piece)
		g.Scores = append(g.Scores, st.Score+st.Lines)
	}
	for i := 1; i < len(gm.Steps); i++ {
		g.Wells = append(g.Wells, gm.Steps[i].Before)
	}
	if len(gm.Steps) > 0 {
		g.Wells = append(g.Wells, gm.Well)
	}
	if err := g.Verify(); err != nil {
		return nil, err
	}
	if g.Score != gr.Score || g.Length != gr.Length || hatetris.PiecesString(g.Pieces) != gr.Pieces {
		return nil, fmt.Errorf("bfs: game %dx%d %s: replays to score %d, %d pieces", gr.Width, gr.Height, gr.Target, g.Score, g.Length)
	}
	return g, nil
}
