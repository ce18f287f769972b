package beamrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

func TestMain(m *testing.M) {
	Init()
	os.Exit(m.Run())
}

// levelsCSV is the levels table of res, as `hatelab bfs --out` writes it.
func levelsCSV(t *testing.T, res *bfs.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bfs.WriteLevels(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameDir checks that two folders hold the same files, byte for byte.
func sameDir(t *testing.T, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) != len(eb) || len(ea) == 0 {
		t.Fatalf("%d files, want %d", len(eb), len(ea))
	}
	for _, e := range ea {
		x, _ := os.ReadFile(filepath.Join(a, e.Name()))
		y, err := os.ReadFile(filepath.Join(b, e.Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs (%v)", e.Name(), err)
		}
	}
}

// TestBFSMatchesNative: Beam's search gives bfs.Search's levels, summary
// and level files, byte for byte. Each level is a pipeline (about 0.2 s on
// Prism); the default blocks and groups (0, 0) are those of 6x8 to level
// 7 (and ExampleBFS's 6x5 to its end), 10x5's 20 levels are cut into
// blocks and groups.
func TestBFSMatchesNative(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   bfs.Options
		block int
		group int
	}{
		{"5x5", bfs.Options{Width: 5, Height: 5}, 50, 7},
		{"6x5 clear-above-bar", bfs.Options{Width: 6, Height: 5, Rule: bfs.RuleClearAboveBar}, 100, 0},
		{"10x5 small blocks and groups", bfs.Options{Width: 10, Height: 5}, 30000, 5000},
		{"6x8", bfs.Options{Width: 6, Height: 8}, 20000, 3000},
		{"6x8 max-levels 7", bfs.Options{Width: 6, Height: 8, MaxLevels: 7}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.opt.Width*tc.opt.Height > 40 {
				t.Skip("short")
			}
			nat := tc.opt
			nat.LevelDir = t.TempDir()
			want, err := bfs.Search(context.Background(), nat)
			if err != nil {
				t.Fatal(err)
			}
			o := tc.opt
			o.LevelDir = t.TempDir()
			got, err := BFS(context.Background(), BFSOptions{Search: o, Work: t.TempDir(), BlockStates: tc.block, GroupStates: tc.group})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(levelsCSV(t, want), levelsCSV(t, got)) {
				t.Fatalf("levels differ:\n%s\nwant\n%s", levelsCSV(t, got), levelsCSV(t, want))
			}
			if got.Score != want.Score || got.Length != want.Length || got.PeakStates != want.PeakStates || got.PeakLevel != want.PeakLevel ||
				got.Expanded != want.Expanded || got.Children != want.Children || got.Unbounded != want.Unbounded || got.Truncated != want.Truncated {
				t.Fatalf("summary differs: %+v, want %+v", got, want)
			}
			sameDir(t, nat.LevelDir, o.LevelDir)
		})
	}
}

// cancelAfter cancels a context at its n-th line.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return len(p), nil
}

func TestBFSResumes(t *testing.T) {
	opt := bfs.Options{Width: 6, Height: 6}
	want, err := bfs.Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := BFS(ctx, BFSOptions{Search: opt, Work: work, BlockStates: 500, GroupStates: 300, Progress: &cancelAfter{n: 4, cancel: cancel}}); err == nil {
		t.Fatal("a cancelled search succeeded")
	}
	// The earlier sitting's time and peak RSS are carried to the end.
	const earlierSeconds, earlierRSS = 1e6, int64(1 << 50)
	states, _ := filepath.Glob(filepath.Join(work, "state-*.json"))
	if len(states) == 0 {
		t.Fatal("no state files after the cancelled sitting")
	}
	for _, p := range states {
		var st bfsState
		b, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(b, &st)
		}
		if err != nil {
			t.Fatal(err)
		}
		if st.Depth > 0 && (st.Seconds <= 0 || st.RSS <= 0) {
			t.Errorf("%s: the sitting's time and memory were not saved: %+v", p, st)
		}
		st.Seconds, st.RSS = earlierSeconds, earlierRSS
		if st.Checksum, err = stateChecksum(&st); err != nil { // resealed
			t.Fatal(err)
		}
		if b, err = json.Marshal(&st); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := BFS(context.Background(), BFSOptions{Search: opt, Work: work, BlockStates: 500, GroupStates: 300})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(levelsCSV(t, want), levelsCSV(t, got)) || got.Children != want.Children {
		t.Fatalf("resumed levels differ:\n%s\nwant\n%s", levelsCSV(t, got), levelsCSV(t, want))
	}
	if got.Seconds < earlierSeconds || got.PeakRSS != earlierRSS {
		t.Errorf("resumed: %.0f s, peak RSS %d; want at least the earlier sitting's %.0f s and its %d", got.Seconds, got.PeakRSS, earlierSeconds, earlierRSS)
	}
	// Another search in the same folder is refused as bad input.
	if _, err := BFS(context.Background(), BFSOptions{Search: bfs.Options{Width: 5, Height: 6}, Work: work}); !IsInput(err) {
		t.Fatalf("another search's folder: %v", err)
	}
}

// stoppedWork returns a work folder of opt's search cancelled after a few
// levels (its last state's level files still there) and that state's
// level.
func stoppedWork(t *testing.T, opt bfs.Options) (string, int) {
	t.Helper()
	work := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := BFS(ctx, BFSOptions{Search: opt, Work: work, BlockStates: 500, GroupStates: 300, Progress: &cancelAfter{n: 5, cancel: cancel}}); err == nil {
		t.Fatal("a cancelled search succeeded")
	}
	states, _ := filepath.Glob(filepath.Join(work, "state-*.json"))
	slices.Sort(states)
	var st bfsState
	b, err := os.ReadFile(states[len(states)-1])
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil || st.Version != stateVersion {
		t.Fatalf("last state: %v, version %d", err, st.Version)
	}
	return work, st.Depth
}

// TestBFSDamagedWork: a work folder whose partition (group) file or state
// is damaged (a flipped bit, cut short) is refused on resume in one line
// naming the file, as bad input, instead of giving wrong level counts
// (issue 30, S3); the same folder undamaged resumes to the right result.
func TestBFSDamagedWork(t *testing.T) {
	opt := bfs.Options{Width: 6, Height: 6}
	want, err := bfs.Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b[len(b)/2] ^= 0x10
		return os.WriteFile(path, b, 0o644)
	}
	cut := func(path string) error {
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		return os.Truncate(path, st.Size()-8)
	}
	for _, tc := range []struct {
		name   string
		file   string // a glob under the work folder; %d is the level
		damage func(string) error
		msg    string
	}{
		{"a bit flipped in a group file", "L%05d/group-*.bin", flip, "checksum mismatch"},
		{"a group file cut short", "L%05d/group-*.bin", cut, "truncated or damaged"},
		{"a bit flipped in the state", "state-%05d.json", flip, ""},
		{"the state's version lowered", "state-%05d.json", func(path string) error {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, bytes.Replace(b, []byte(`"Version":2`), []byte(`"Version":1`), 1), 0o644)
		}, "(edited)"},
		{"nothing damaged", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work, depth := stoppedWork(t, opt)
			var path string
			if tc.damage != nil {
				names, _ := filepath.Glob(filepath.Join(work, fmt.Sprintf(tc.file, depth)))
				if len(names) == 0 {
					t.Fatalf("no %s", tc.file)
				}
				path = names[len(names)/2]
				if err := tc.damage(path); err != nil {
					t.Fatal(err)
				}
			}
			got, err := BFS(context.Background(), BFSOptions{Search: opt, Work: work, BlockStates: 500, GroupStates: 300})
			if tc.damage == nil {
				if err != nil || !bytes.Equal(levelsCSV(t, want), levelsCSV(t, got)) {
					t.Fatalf("undamaged resume: %v", err)
				}
				return
			}
			if err == nil || !IsInput(err) || !strings.Contains(err.Error(), filepath.Base(path)) || !strings.Contains(err.Error(), tc.msg) ||
				strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line of bad input naming %s with %q", err, filepath.Base(path), tc.msg)
			}
		})
	}
}

// TestBFSResumesOldWork: a work folder written before checksums and
// sparse counts (group files without a trailer, states without version or
// checksum, with every partition's count) still resumes, to the same
// result.
func TestBFSResumesOldWork(t *testing.T) {
	opt := bfs.Options{Width: 6, Height: 6}
	want, err := bfs.Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	work, depth := stoppedWork(t, opt)
	groups, _ := filepath.Glob(filepath.Join(work, fmt.Sprintf("L%05d", depth), "group-*.bin"))
	for _, p := range groups {
		st, _ := os.Stat(p)
		if err := os.Truncate(p, st.Size()-8); err != nil {
			t.Fatal(err)
		}
	}
	states, _ := filepath.Glob(filepath.Join(work, "state-*.json"))
	for _, p := range states {
		var st bfsState
		b, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(b, &st)
		}
		if err != nil {
			t.Fatal(err)
		}
		// The old form: no version, no checksum, dense counts.
		st.Version, st.Checksum = 0, ""
		st.Counts = make([]int64, st.NParts)
		for _, pc := range st.Sparse {
			st.Counts[pc[0]] = pc[1]
		}
		st.NParts, st.Sparse = 0, nil
		b, _ = json.Marshal(&st)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := BFS(context.Background(), BFSOptions{Search: opt, Work: work, BlockStates: 500, GroupStates: 300})
	if err != nil || !bytes.Equal(levelsCSV(t, want), levelsCSV(t, got)) {
		t.Fatalf("an old work folder: %v", err)
	}
}

// TestBFSSparse: a well of 2^24 partitions (11x8) costs what its states
// do: its first levels run in seconds and small state files, where the
// counts, elements and accumulators sized per partition took minutes and
// gigabytes.
func TestBFSSparse(t *testing.T) {
	opt := bfs.Options{Width: 11, Height: 8, MaxLevels: 3}
	want, err := bfs.Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	got, err := BFS(context.Background(), BFSOptions{Search: opt, Work: work})
	if err != nil || !bytes.Equal(levelsCSV(t, want), levelsCSV(t, got)) {
		t.Fatalf("11x8, 3 levels: %v", err)
	}
	states, _ := filepath.Glob(filepath.Join(work, "state-*.json"))
	for _, p := range states {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 64<<10 {
			t.Errorf("%s: %d bytes, want a few kB", p, st.Size())
		}
	}
}
