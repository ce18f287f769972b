package bfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
)

// keptLimit bounds the states expanded of the committed tables that
// TestKeptRebuildTables rebuilds (10x4 and below); the tables up to 10x6's
// 21 M states (10x5, 10x6, both rules) run with the tag bfslarge
// (kept_large_test.go).
const keptLimit = 200_000

// keptWays are the ways of keeping levels and rebuilding from them that
// keptTables takes turns with, table after table: every K-th level kept
// (K = 1, 2, 3, 5, or one past the length: level 0 alone), the rebuild in
// memory or spilled past a 1 MiB budget, or with LowDisk (each segment's
// levels searched again, through its middle level when K = 5); K = 3's
// search itself spilled past 1 MiB.
var keptWays = []struct {
	name           string
	K              int // 0: one past the table's length
	spillSearch    bool
	spillRebuild   bool
	lowDiskRebuild bool
}{
	{"K=1", 1, false, false, false},
	{"K=2, rebuild spilled", 2, false, true, false},
	{"K=3, search spilled, low disk", 3, true, false, true},
	{"K=5, low disk", 5, false, false, true},
	{"one past the length", 0, false, false, false},
}

// TestKeptRebuildTables: for every committed table whose search is quick,
// the games rebuilt from kept levels are the games of the all-levels
// rebuild, key for key, and they replay to the row's length (longest) and
// score (score). The tables take turns with the ways of keptWays, so that
// every table is rebuilt one way and each way rebuilds seven or eight
// tables, of both rules, short and long (lengths 1 to 17).
func TestKeptRebuildTables(t *testing.T) {
	limit := int64(keptLimit)
	if testing.Short() {
		limit = 20_000
	}
	keptTables(t, 0, limit, false)
}

// keptTables runs the comparison on the committed tables whose states
// expanded lie in (from, to]: each table one of keptWays in turn, or with
// every way when all is set.
func keptTables(t *testing.T, from, to int64, all bool) {
	rows, err := ReadSummaryFile(filepath.Join(datasetDir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	runs := make([]int, len(keptWays))
	for _, r := range rows {
		if r.Unbounded || r.States <= from || r.States > to {
			continue
		}
		allDir := t.TempDir()
		opt := Options{Width: r.Width, Height: r.Height, Rule: r.Rule, Workers: 2, LevelDir: allDir}
		if _, err := Search(context.Background(), opt); err != nil {
			t.Fatal(err)
		}
		want := map[Target]*Game{}
		for _, tg := range []Target{Longest, HighestScoring} {
			if want[tg], err = Reconstruct(allDir, tg); err != nil {
				t.Fatalf("%dx%d %v: %v", r.Width, r.Height, r.Rule, err)
			}
		}
		for i, way := range keptWays {
			if !all && i != ran%len(keptWays) {
				continue
			}
			runs[i]++
			K := way.K
			if K == 0 {
				K = r.Length + 1
			}
			dir := t.TempDir()
			kopt := Options{Width: r.Width, Height: r.Height, Rule: r.Rule, Workers: 2, Compress: true, LevelDir: dir, KeepEvery: K}
			if way.spillSearch {
				kopt.SpillDir, kopt.MemoryBudget = t.TempDir(), 1<<20
			}
			if _, err := Search(context.Background(), kopt); err != nil {
				t.Fatal(err)
			}
			for _, tg := range []Target{Longest, HighestScoring} {
				ro := RebuildOptions{Workers: 2, WorkDir: t.TempDir(), LowDisk: way.lowDiskRebuild}
				if way.spillRebuild {
					ro.SpillDir, ro.MemoryBudget = t.TempDir(), 1<<20
				}
				g, err := Rebuild(context.Background(), dir, tg, ro)
				if err != nil {
					t.Fatalf("%dx%d %v K=%d %s: %v", r.Width, r.Height, r.Rule, K, targetName(tg), err)
				}
				if g.Keys != want[tg].Keys || g.Score != want[tg].Score || g.Length != want[tg].Length {
					t.Fatalf("%dx%d %v K=%d %s: game %q (score %d, %d pieces), all levels give %q (score %d, %d pieces)",
						r.Width, r.Height, r.Rule, K, targetName(tg), g.Keys, g.Score, g.Length, want[tg].Keys, want[tg].Score, want[tg].Length)
				}
				rec := GameRecord{Width: r.Width, Height: r.Height, Rule: r.Rule.String(), Score: g.Score, Length: g.Length,
					Pieces: piecesOf(g), Replay: g.Keys, Target: targetName(tg)}
				if _, err := rec.Game(); err != nil {
					t.Fatalf("%dx%d K=%d %s: %v", r.Width, r.Height, K, targetName(tg), err)
				}
				if tg == Longest && g.Length != r.Length || tg == HighestScoring && g.Score != r.Score {
					t.Fatalf("%dx%d K=%d %s: score %d, length %d; the row says %d, %d", r.Width, r.Height, K, targetName(tg), g.Score, g.Length, r.Score, r.Length)
				}
			}
			// Only the kept levels are in the folder.
			files, _ := filepath.Glob(filepath.Join(dir, "level-*"))
			if wantN := r.Length/K + 1; len(files) != wantN {
				t.Fatalf("%dx%d K=%d: %d level files, want %d", r.Width, r.Height, K, len(files), wantN)
			}
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no table rebuilt")
	}
	for i, n := range runs {
		if n == 0 && ran >= len(keptWays) {
			t.Errorf("no table rebuilt with %s", keptWays[i].name)
		}
	}
	t.Logf("%d tables rebuilt from kept levels, %v of them each way", ran, runs)
}

func piecesOf(g *Game) string {
	b := make([]byte, len(g.Pieces))
	for i, p := range g.Pieces {
		b[i] = p.String()[0]
	}
	return string(b)
}

// keptSearch runs a search keeping every K-th level in a new folder.
func keptSearch(t *testing.T, w, h, K int) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Search(context.Background(), Options{Width: w, Height: h, Workers: 2, Compress: true, LevelDir: dir, KeepEvery: K}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestKeptRebuildResume: a rebuild stopped after n segments (as a kill
// after its progress was saved) and run again gives the game of a rebuild
// never stopped; a stale temporary file of the progress is ignored.
func TestKeptRebuildResume(t *testing.T) {
	dir := keptSearch(t, 8, 5, 3) // length 13: segments 12, 9..11, 6..8, 3..5, 0..2
	want, err := Reconstruct(dir, Longest)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stops []int
		low   bool
	}{{"after 1", []int{1}, false}, {"after 2, then 1", []int{2, 1}, false}, {"after 4", []int{4}, false}, {"low disk, after 2", []int{2}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			for _, n := range tc.stops {
				if _, err := Rebuild(context.Background(), dir, Longest, RebuildOptions{WorkDir: work, stopAfter: n, LowDisk: tc.low}); !errors.Is(err, errStopped) {
					t.Fatalf("stop after %d: %v", n, err)
				}
			}
			os.WriteFile(filepath.Join(work, ".progress-longest.json.tmp-1"), []byte("{half"), 0o644)
			g, err := Rebuild(context.Background(), dir, Longest, RebuildOptions{WorkDir: work})
			if err != nil {
				t.Fatal(err)
			}
			if g.Keys != want.Keys {
				t.Fatalf("resumed: %q, want %q", g.Keys, want.Keys)
			}
			// Finished: the progress holds the whole game.
			if g, err = Rebuild(context.Background(), dir, Longest, RebuildOptions{WorkDir: work}); err != nil || g.Keys != want.Keys {
				t.Fatalf("again: %v", err)
			}
		})
	}
	// Both games in one pass, stopped and resumed: the games of the
	// rebuilds one by one.
	score, err := Reconstruct(dir, HighestScoring)
	if err != nil {
		t.Fatal(err)
	}
	// Stopped after the first segment, the highest-scoring game (its
	// target below that segment) has found nothing yet: resuming must
	// not trip over its empty progress (a kill there once made the
	// rebuild refuse to resume).
	for _, stop := range []int{1, 2} {
		work := t.TempDir()
		if _, err := RebuildTargets(context.Background(), dir, []Target{Longest, HighestScoring}, RebuildOptions{WorkDir: work, stopAfter: stop}); !errors.Is(err, errStopped) {
			t.Fatal(err)
		}
		gs, err := RebuildTargets(context.Background(), dir, []Target{HighestScoring, Longest}, RebuildOptions{WorkDir: work})
		if err != nil || gs[0].Keys != score.Keys || gs[1].Keys != want.Keys {
			t.Fatalf("both, stopped after %d: %v", stop, err)
		}
	}
	// Low disk at K = 5 (each segment's levels searched again two at a
	// time from its kept level): stopped after any number of levels (as a
	// kill after a level was saved) and run again, the same games. A kill
	// between the two games' saves (the longest saved at that level, the
	// highest-scoring one a level before) too. A damaged level left in seg
	// by the kill is not trusted, and the middle level an earlier version
	// kept (mid/) is removed.
	//
	// Each stop is made once: the folder it leaves is copied for the kill
	// between the saves, whose highest-scoring progress is the one the
	// stop a level earlier left (read before that folder was resumed).
	dir5 := keptSearch(t, 8, 5, 5) // length 13: segments 10..13, 5..9, 0..4
	var scoreBefore []byte         // the highest-scoring progress after stop-1 levels (nil: none)
	for stop := 1; stop <= 14; stop++ {
		stopped := t.TempDir()
		ro := RebuildOptions{WorkDir: stopped, LowDisk: true, stopAfterLevels: stop}
		if _, err := RebuildTargets(context.Background(), dir5, []Target{Longest, HighestScoring}, ro); !errors.Is(err, errStopped) {
			t.Fatalf("low disk, stopped after %d levels: %v", stop, err)
		}
		scoreAfter, _ := os.ReadFile(progressPath(stopped, HighestScoring))
		for _, between := range []bool{true, false} {
			if between && stop == 1 {
				continue
			}
			work := stopped
			if between {
				work = t.TempDir()
				copyDir(t, stopped, work)
				if scoreBefore != nil {
					os.WriteFile(progressPath(work, HighestScoring), scoreBefore, 0o644)
				} else {
					os.Remove(progressPath(work, HighestScoring))
				}
			}
			// Left by a kill: a damaged level 8 in seg (segment 5..9's
			// second level, kept by the search to level 9) and mid/.
			os.MkdirAll(filepath.Join(work, "seg"), 0o755)
			os.WriteFile(keptPath(filepath.Join(work, "seg"), 8), []byte("damaged"), 0o644)
			os.MkdirAll(filepath.Join(work, "mid"), 0o755)
			os.WriteFile(keptPath(filepath.Join(work, "mid"), 7), []byte("damaged"), 0o644)
			gs, err := RebuildTargets(context.Background(), dir5, []Target{Longest, HighestScoring}, RebuildOptions{WorkDir: work, LowDisk: true})
			if err != nil || gs[0].Keys != want.Keys || gs[1].Keys != score.Keys {
				t.Fatalf("low disk, stopped after %d levels (between saves %v) and resumed: %v", stop, between, err)
			}
			if _, err := os.Stat(filepath.Join(work, "mid")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("stopped after %d levels: mid/ left (%v)", stop, err)
			}
		}
		scoreBefore = scoreAfter
	}
	// A cancelled context stops it too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Rebuild(ctx, dir, Longest, RebuildOptions{WorkDir: t.TempDir()}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestKeptRebuildHostile: damaged or foreign kept levels and progress are
// refused with one line that names the problem (ErrInput).
func TestKeptRebuildHostile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir, work string)
		want   string
	}{
		{"missing kept level", func(t *testing.T, dir, _ string) { os.Remove(keptPath(dir, 4)) }, "kept level 4 is missing"},
		{"truncated kept level", func(t *testing.T, dir, _ string) { truncate(t, keptPath(dir, 6), 50) }, "level-00006.run"},
		{"flipped byte", func(t *testing.T, dir, _ string) { flipFile(t, keptPath(dir, 8), 60) }, "level-00008.run"},
		{"kept level of another search", func(t *testing.T, dir, _ string) {
			other := keptSearch(t, 8, 6, 2)
			copyFile(t, keptPath(other, 4), keptPath(dir, 4))
		}, "another search's"},
		{"a directory for a level", func(t *testing.T, dir, _ string) {
			os.Remove(keptPath(dir, 2))
			os.Mkdir(keptPath(dir, 2), 0o755)
		}, "is a folder, not a file"},
		{"edited meta", func(t *testing.T, dir, _ string) {
			edit(t, filepath.Join(dir, metaName), `"KeepEvery": 2`, `"KeepEvery": 3`)
		}, "checksum mismatch"},
		{"progress of another search", func(t *testing.T, dir, work string) {
			other := keptSearch(t, 8, 6, 2)
			if _, err := Rebuild(context.Background(), other, Longest, RebuildOptions{WorkDir: work, stopAfter: 1}); !errors.Is(err, errStopped) {
				t.Fatal(err)
			}
		}, "another rebuild"},
		{"damaged progress", func(t *testing.T, dir, work string) {
			os.WriteFile(progressPath(work, Longest), []byte(`{"Version": 1}`), 0o644)
		}, "checksum mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) { hostileKept(t, tc.damage, tc.want) })
	}
	// Options: kept levels need compression and a folder.
	for _, opt := range []Options{
		{Width: 6, Height: 4, KeepEvery: 2, LevelDir: t.TempDir()},
		{Width: 6, Height: 4, KeepEvery: 2, Compress: true},
		{Width: 6, Height: 4, KeepEvery: -1, Compress: true, LevelDir: t.TempDir()},
		{Width: 6, Height: 4, Compress: true, SpillDir: t.TempDir(), LevelDir: t.TempDir()},
	} {
		if err := Validate(opt); err == nil || !errors.Is(err, ErrInput) {
			t.Errorf("%+v: %v, want an input error", opt, err)
		}
	}
}

func truncate(t *testing.T, path string, n int64) {
	t.Helper()
	if err := os.Truncate(path, n); err != nil {
		t.Fatal(err)
	}
}

func flipFile(t *testing.T, path string, at int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) <= at {
		t.Fatalf("%s: %v (%d bytes)", path, err, len(b))
	}
	b[at] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies the files and folders under from into to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, de fs.DirEntry, err error) error {
		if err != nil || path == from {
			return err
		}
		target := filepath.Join(to, path[len(from):])
		if de.IsDir() {
			return os.Mkdir(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(s, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKeptSearchResume: a search keeping levels, stopped part way (at a
// level limit, as a kill after a checkpoint) and run again from its
// checkpoint, in memory and in compressed disk mode, leaves kept levels
// that rebuild the game of a search never stopped.
func TestKeptSearchResume(t *testing.T) {
	want, err := Reconstruct(keptSearch(t, 7, 6, 4), Longest)
	if err != nil {
		t.Fatal(err)
	}
	for _, disk := range []bool{false, true} {
		for _, stop := range []int{3, 4, 9} {
			dir := t.TempDir()
			opt := Options{Width: 7, Height: 6, Workers: 2, Compress: true, LevelDir: dir, KeepEvery: 4, Checkpoint: t.TempDir(), MaxLevels: stop}
			if disk {
				opt.SpillDir, opt.MemoryBudget = t.TempDir(), 1<<20
			}
			if res, err := Search(context.Background(), opt); err != nil || !res.Truncated {
				t.Fatalf("stop at %d: %v", stop, err)
			}
			opt.MaxLevels = 0
			if _, err := Search(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
			g, err := Rebuild(context.Background(), dir, Longest, RebuildOptions{WorkDir: t.TempDir()})
			if err != nil {
				t.Fatalf("disk %v, stop at %d: %v", disk, stop, err)
			}
			if g.Keys != want.Keys {
				t.Fatalf("disk %v, stop at %d: %q, want %q", disk, stop, g.Keys, want.Keys)
			}
		}
	}
}

// hostileKept damages a kept-levels folder of 8x5 (K = 2) and a work
// folder, and checks that Rebuild refuses them with one line containing
// want (ErrInput).
func hostileKept(t *testing.T, damage func(t *testing.T, dir, work string), want string) {
	t.Helper()
	dir, work := keptSearch(t, 8, 5, 2), t.TempDir()
	damage(t, dir, work)
	_, err := Rebuild(context.Background(), dir, Longest, RebuildOptions{WorkDir: work})
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v, want one line with %q (ErrInput)", err, want)
	}
}

// TestKeptRebuildLowDiskLevels: the levels a rebuild of 8x5 (K = 5,
// length 13: segments 10..13, 5..9, 0..4) expands, counted from its
// searches' progress: K-1 a full segment from its kept level (11 in all),
// and with LowDisk 6 a full segment (16 in all; 10 a segment, 26 in all,
// with nothing kept on the way). And LowDisk keeps on the way no level
// below the one being expanded: the work folder then holds no more than the
// search without it did (the level expanded, its children, the next level),
// so its disk at the widest (10x8: level 13 expanded from 10) is not one
// level more.
func TestKeptRebuildLowDiskLevels(t *testing.T) {
	dir := keptSearch(t, 8, 5, 5)
	want, err := Reconstruct(dir, Longest)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		low      bool
		spill    bool
		expanded []int // levels expanded a segment, from the top one
	}{
		{"all levels", false, false, []int{3, 4, 4}},
		{"low disk", true, false, []int{4, 6, 6}},
		{"low disk, disk mode", true, true, []int{4, 6, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			ro := RebuildOptions{WorkDir: work, LowDisk: tc.low, Workers: 2}
			if tc.spill {
				ro.SpillDir, ro.MemoryBudget = t.TempDir(), 1<<14
			}
			expanded := map[int]int{} // by segment (its kept level)
			var below []string
			ro.Progress = progress.Func(func(e progress.Event) {
				var lo, top, x int
				if _, err := fmt.Sscanf(e.Job, "rebuild 8x5: levels %d..%d", &lo, &top); err != nil {
					return
				}
				if _, err := fmt.Sscanf(e.Stage, "level %d", &x); err != nil {
					return
				}
				if strings.Contains(e.Info, ", next ") { // level x expanded
					expanded[(lo-1)/5*5]++
				}
				if !tc.low {
					return
				}
				filepath.WalkDir(work, func(path string, de fs.DirEntry, err error) error {
					var d int
					if err == nil && !de.IsDir() {
						if _, err := fmt.Sscanf(de.Name(), "level-%05d.run", &d); err == nil && d < x {
							below = append(below, fmt.Sprintf("%s while level %d is expanded", path[len(work):], x))
						}
					}
					return nil
				})
			})
			g, err := Rebuild(context.Background(), dir, Longest, ro)
			if err != nil || g.Keys != want.Keys {
				t.Fatalf("%v: %q, want %q", err, g.Keys, want.Keys)
			}
			for i, lo := range []int{10, 5, 0} {
				if expanded[lo] != tc.expanded[i] {
					t.Errorf("segment %d..: %d levels expanded, want %d", lo, expanded[lo], tc.expanded[i])
				}
			}
			if len(below) > 0 {
				t.Errorf("levels held below the one expanded: %v", below)
			}
		})
	}
}

// TestSameState: a game whose lowest state is the state a game already
// stepped at this level came from (same level, same score) takes that
// game's parent; a target (no state yet), another score or another level
// does not.
func TestSameState(t *testing.T) {
	var a, b, c hatetris.Well
	a[5], b[5], c[5] = 1, 2, 3
	// h: depth 10, stepped from its state b at level 9 down to c at level 8.
	h := &keptGame{depth: 10, wells: []hatetris.Well{a, b, c}, scores: []int{4, 3, 3}, pieces: []hatetris.Piece{1, 2}}
	for _, tc := range []struct {
		name string
		g    *keptGame
		want bool
	}{
		{"same state and level", &keptGame{depth: 9, wells: []hatetris.Well{b}, scores: []int{3}}, true},
		{"same state, longer game", &keptGame{depth: 12, wells: []hatetris.Well{a, c, a, b}, scores: []int{5, 5, 4, 3}}, true},
		{"a target", &keptGame{depth: 8}, false},
		{"another score", &keptGame{depth: 9, wells: []hatetris.Well{b}, scores: []int{2}}, false},
		{"another level", &keptGame{depth: 10, wells: []hatetris.Well{b}, scores: []int{3}}, false},
		{"another state", &keptGame{depth: 9, wells: []hatetris.Well{a}, scores: []int{3}}, false},
	} {
		if got := sameState([]*keptGame{h}, tc.g); (got == h) != tc.want {
			t.Errorf("%s: %v, want a match %v", tc.name, got, tc.want)
		}
	}
	// Both targets the same game: the second walks down on the first's
	// parents, and both are the game of every level.
	dir := keptSearch(t, 8, 5, 3)
	want, err := Reconstruct(dir, Longest)
	if err != nil {
		t.Fatal(err)
	}
	for _, low := range []bool{false, true} {
		reads := 0
		gs, err := RebuildTargets(context.Background(), dir, []Target{Longest, Longest}, RebuildOptions{WorkDir: t.TempDir(), LowDisk: low, reads: &reads})
		if err == nil && (gs[0].Keys != want.Keys || gs[1].Keys != want.Keys) {
			err = fmt.Errorf("%q and %q, want %q", gs[0].Keys, gs[1].Keys, want.Keys)
		}
		// One read a level below the target (length 13: levels 12..0),
		// not two: the second game never reads a level.
		if err == nil && reads != want.Length {
			err = fmt.Errorf("%d levels read for a parent, want %d (one a level)", reads, want.Length)
		}
		if err != nil {
			t.Fatalf("low disk %v: %v", low, err)
		}
	}
}

// TestKeptRebuildWorkers: the parent found when a level is read by 1, 2
// or 3 goroutines (each reading whole blocks in no set order) is the
// first in level-file order, so the games are those of every level.
func TestKeptRebuildWorkers(t *testing.T) {
	dir := keptSearch(t, 9, 5, 3) // levels of up to 43,375 states: 11 blocks of 4,096
	var want []*Game
	for _, tg := range []Target{Longest, HighestScoring} {
		g, err := Reconstruct(dir, tg)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, g)
	}
	for _, workers := range []int{1, 2, 3} {
		gs, err := RebuildTargets(context.Background(), dir, []Target{Longest, HighestScoring}, RebuildOptions{WorkDir: t.TempDir(), Workers: workers, LowDisk: true})
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		for i := range gs {
			if gs[i].Keys != want[i].Keys {
				t.Fatalf("%d workers, game %d: %q, want %q", workers, i, gs[i].Keys, want[i].Keys)
			}
		}
	}
}
