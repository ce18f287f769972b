package bfs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hatelab/hatelab/engine/progress"
)

// sameOutcome compares what a search found (not its timing).
func sameOutcome(t *testing.T, what string, got, want *Result) {
	t.Helper()
	if got.Score != want.Score || got.Length != want.Length || got.PeakStates != want.PeakStates ||
		got.PeakLevel != want.PeakLevel || got.Expanded != want.Expanded || got.Children != want.Children ||
		got.Unbounded != want.Unbounded || got.Truncated != want.Truncated || !reflect.DeepEqual(got.Levels, want.Levels) {
		t.Fatalf("%s: got score %d length %d width %d (level %d) expanded %d children %d, %d levels; want %d %d %d (%d) %d %d, %d levels",
			what, got.Score, got.Length, got.PeakStates, got.PeakLevel, got.Expanded, got.Children, len(got.Levels),
			want.Score, want.Length, want.PeakStates, want.PeakLevel, want.Expanded, want.Children, len(want.Levels))
	}
}

// TestCheckpointResume stops searches part way (as a kill between levels
// would), resumes them from their checkpoints, in memory and disk mode and
// with another worker count, and checks that nothing is lost.
func TestCheckpointResume(t *testing.T) {
	var last progress.Event // the last event, the display's closing line's
	finished := progress.Func(func(e progress.Event) {
		if e.Finished {
			last = e
		}
	})
	want, err := Search(context.Background(), Options{Width: 10, Height: 5, Progress: finished})
	if err != nil {
		t.Fatal(err)
	}
	if last.Info != doneInfo(want, false) || strings.Contains(last.Info, " in all") {
		t.Fatalf("closing info %q, want %q", last.Info, doneInfo(want, false))
	}
	for _, tc := range []struct {
		name      string
		stopAt    int
		spill     bool
		workers   int
		levelsDir bool
	}{
		{"memory", 7, false, 2, false},
		{"memory, 1 worker after", 12, false, 1, true},
		{"disk mode", 9, true, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			opt := Options{Width: 10, Height: 5, Checkpoint: filepath.Join(dir, "ck"), MaxLevels: tc.stopAt}
			if tc.spill {
				opt.SpillDir = filepath.Join(dir, "spill")
			}
			if tc.levelsDir {
				opt.LevelDir = filepath.Join(dir, "levels")
			}
			part, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !part.Truncated {
				t.Fatal("the first run should stop early")
			}
			ck, err := loadCheckpoint(opt.Checkpoint, checkpointFor(opt, mustCodec(t, 10, 5)))
			if err != nil || ck == nil || ck.Done || ck.Depth != tc.stopAt {
				t.Fatalf("checkpoint after the first run: %+v, %v", ck, err)
			}
			// An earlier sitting's larger peak RSS is carried to the end.
			const earlierRSS = 1 << 50
			ck.Result.PeakRSS = earlierRSS
			b, err := sealJSON(ck, &ck.Checksum)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(opt.Checkpoint, checkpointName), b, 0o644); err != nil {
				t.Fatal(err)
			}
			opt.MaxLevels, opt.Workers, opt.Progress = 0, tc.workers, finished
			got, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, "resumed", got, want)
			// A resumed search's time in all, which the display's "done
			// in" (this run's) lacks.
			if last.Info != doneInfo(got, true) || !strings.HasSuffix(last.Info, " in all with the runs before the resume") {
				t.Errorf("closing info after the resume %q, want %q", last.Info, doneInfo(got, true))
			}
			opt.Progress = nil
			if got.PeakRSS != earlierRSS {
				t.Errorf("peak RSS %d after the resume, want the earlier sitting's %d", got.PeakRSS, int64(earlierRSS))
			}
			if tc.levelsDir {
				// The level files of both runs make a whole search.
				g, err := Reconstruct(opt.LevelDir, Longest)
				if err != nil || g.Length != want.Length {
					t.Fatalf("reconstruct after resume: %v %v", g, err)
				}
			}
			// Finished: the result is kept, the level file removed.
			files, _ := filepath.Glob(filepath.Join(opt.Checkpoint, "*.bin"))
			if len(files) != 0 {
				t.Fatalf("level files left after the end: %v", files)
			}
			again, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, "finished checkpoint", again, want)
		})
	}
}

// TestDoneInfo: the closing line's outcome in the lab's number style, a
// time only after a resume (the display gives this run's), as a clock.
func TestDoneInfo(t *testing.T) {
	res := &Result{Score: 12, Length: 43, PeakStates: 141514270, Seconds: 1946.1}
	for _, tc := range []struct {
		resumed bool
		want    string
	}{
		{false, "score 12, length 43, peak 141,514,270 states"},
		{true, "score 12, length 43, peak 141,514,270 states, 32:26 in all with the runs before the resume"},
	} {
		if got := doneInfo(res, tc.resumed); got != tc.want {
			t.Errorf("resumed %v: %q, want %q", tc.resumed, got, tc.want)
		}
	}
}

func mustCodec(t testing.TB, w, h int) *codec {
	c, err := newCodec(w, h, Bar)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCheckpointErrors: another search's checkpoint, a damaged one and a
// truncated level file are refused with a one-line error; leftover
// temporary files of a killed write are ignored.
func TestCheckpointErrors(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Width: 10, Height: 5, Checkpoint: dir, MaxLevels: 8}
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "frontier-00008.bin.tmp-123"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := opt
	other.Height = 6
	if _, err := Search(context.Background(), other); err == nil || !strings.Contains(err.Error(), "10x5") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("another search's checkpoint: %v", err)
	}
	full := opt
	full.MaxLevels = 0
	level := filepath.Join(dir, "frontier-00008.bin")
	b, err := os.ReadFile(level)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(level, b[:len(b)-8], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Search(context.Background(), full); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated level file: %v", err)
	}
	if err := os.WriteFile(level, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Search(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Search(context.Background(), Options{Width: 10, Height: 5})
	sameOutcome(t, "after the leftovers", res, want)
	if err := os.WriteFile(filepath.Join(dir, checkpointName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Search(context.Background(), full); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged checkpoint: %v", err)
	}
}

// countdownCtx is a context cancelled by its own Err: the first n calls
// return nil, the later ones context.Canceled. With one worker the calls
// come in a fixed order, so the cancel lands at a fixed place of the
// search (between levels, at a partition, or within one).
type countdownCtx struct {
	context.Context
	left atomic.Int64
	done chan struct{}
	once sync.Once
}

func newCountdown(n int64) *countdownCtx {
	c := &countdownCtx{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

func (c *countdownCtx) Done() <-chan struct{} { return c.done }

// TestSearchCancel cancels searches at several points, in memory and disk
// mode: Search returns an error wrapping context.Canceled, and the same
// search run again resumes from the last checkpoint to the result of a
// search never stopped. Disk mode searches 10x4 (11 levels; 10x5's 20
// write 256 partition files each), spilled past 64 KiB.
func TestSearchCancel(t *testing.T) {
	want := map[int]*Result{}
	for _, h := range []int{4, 5} {
		var err error
		if want[h], err = Search(context.Background(), Options{Width: 10, Height: h}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		h       int   // 10xh
		after   int64 // Err calls before the cancel
		spill   bool
		resumes bool // a checkpoint was saved before the cancel
	}{
		{"before the first level", 5, 0, false, false},
		{"at level 1", 5, 2, false, false},
		{"inside level 2", 5, 400, false, false},
		{"inside level 9, after checkpoints", 5, 2500, false, true},
		{"inside level 19 (the last)", 5, 5000, false, true},
		{"disk mode, inside level 6 of 10x4", 4, 1700, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			opt := Options{Width: 10, Height: tc.h, Workers: 1, Checkpoint: filepath.Join(dir, "ck")}
			if tc.spill {
				opt.SpillDir, opt.MemoryBudget = filepath.Join(dir, "spill"), 1<<16
			}
			_, err := Search(newCountdown(tc.after), opt)
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped at level") {
				t.Fatalf("cancelled search: %v, want context.Canceled", err)
			}
			t.Log(err)
			ck, err := loadCheckpoint(opt.Checkpoint, checkpointFor(opt, mustCodec(t, 10, tc.h)))
			if err != nil || (ck != nil && ck.Done) || (ck != nil) != tc.resumes {
				t.Fatalf("checkpoint after the cancel: %+v, %v (want one: %v)", ck, err, tc.resumes)
			}
			got, err := Search(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			sameOutcome(t, tc.name, got, want[tc.h])
		})
	}
	// A context cancelled before the start stops the history search too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := HistorySearch(ctx, HistoryOptions{Width: 4, Height: 8}); !errors.Is(err, context.Canceled) {
		t.Errorf("history search: %v, want context.Canceled", err)
	}
}

// TestCheckpointVersion1 resumes from a checkpoint in the format before the
// glossary's renames (MaxWidth, MaxWidthDepth, a level's "depth").
func TestCheckpointVersion1(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Width: 10, Height: 5, Checkpoint: dir, CheckpointEvery: 0, MaxLevels: 12}
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, checkpointName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.NewReplacer(`"Version": 3`, `"Version": 1`, `"PeakStates"`, `"MaxWidth"`, `"PeakLevel"`, `"MaxWidthDepth"`,
		`"level"`, `"depth"`).Replace(string(b))
	if old == string(b) || !strings.Contains(old, `"MaxWidthDepth"`) || !strings.Contains(old, `"Version": 1`) {
		t.Fatalf("no version-1 checkpoint made of %s", b)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.MaxLevels = 0
	got, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Search(context.Background(), Options{Width: 10, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	sameOutcome(t, "resumed from version 1", got, want)
}

// TestLevelJSON: a level's number is written as "level" and read from
// "level" or the old "depth".
func TestLevelJSON(t *testing.T) {
	b, err := json.Marshal(Level{Level: 3, States: 5, Children: 7, BestScore: 1})
	if err != nil || string(b) != `{"level":3,"states":5,"children":7,"best_score":1}` {
		t.Fatalf("%s %v", b, err)
	}
	for _, tc := range []struct {
		in   string
		want Level
	}{
		{`{"level":3,"states":5,"children":7,"best_score":1}`, Level{3, 5, 7, 1}},
		{`{"depth":4,"states":5,"children":7,"best_score":1}`, Level{4, 5, 7, 1}},
		{`{"level":2,"depth":9,"states":1}`, Level{Level: 2, States: 1}},
		{`{"states":1}`, Level{States: 1}},
	} {
		var l Level
		if err := json.Unmarshal([]byte(tc.in), &l); err != nil || l != tc.want {
			t.Errorf("%s: %+v %v, want %+v", tc.in, l, err, tc.want)
		}
	}
	var l Level
	if err := json.Unmarshal([]byte(`{"level":"x"}`), &l); err == nil {
		t.Error("a bad level: want an error")
	}
}
