package beamrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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

func TestBFSMatchesNative(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   bfs.Options
		block int
		group int
	}{
		{"5x5", bfs.Options{Width: 5, Height: 5}, 50, 7},
		{"6x5 clear-above-bar", bfs.Options{Width: 6, Height: 5, Rule: bfs.RuleClearAboveBar}, 100, 0},
		{"10x5", bfs.Options{Width: 10, Height: 5}, 0, 0},
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
