package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/beams"
	"github.com/hatelab/hatelab/datasets/records"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

func TestParseSuite(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		n     int
		error string
	}{
		{"openings:20:8:1", 20, ""},
		{"empty:5", 5, ""},
		{"records:3:7", 3, ""},
		{"games:4:7:30", 4, ""},
		{"games:4:7", 0, "takes 3 fields"},
		{"games:4:7:100000000", 0, "minimum score"},
		{"games:4:7:1000", 0, "no game has a spawn at 1000 lines"},
		{"games:4:7:30:no-such-file.jsonl", 0, "no-such-file.jsonl"},
		{"openings:20:8", 0, "takes 3 fields"},
		{"openings:0:8:1", 0, "number of starts"},
		{"openings:20:-1:1", 0, "pieces"},
		{"empty:100001", 0, "number of starts"},
		{"random:3", 0, "unknown kind"},
		{"openings:02:8:01", 0, "no leading zeros"},
		{"openings:2:08:1", 0, "pieces \"08\""},
		{"records:3:07", 0, "seed \"07\""},
		{"empty:+5", 0, "number of starts"},
		{"games:4:7:030", 0, "no leading zeros"},
		{"", 0, "unknown kind"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := ParseSuite(tc.spec, nil)
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("ParseSuite(%q) = %v, want a one-line error about %s", tc.spec, err, tc.error)
				}
				return
			}
			if err != nil || len(s.Starts) != tc.n {
				t.Fatalf("ParseSuite(%q) = %v, %v", tc.spec, s, err)
			}
			again, _ := ParseSuite(tc.spec, nil)
			if s.ID() != again.ID() || len(s.ID()) != 12 {
				t.Fatalf("ID %q then %q", s.ID(), again.ID())
			}
		})
	}
	a, _ := ParseSuite("openings:20:8:1", nil)
	b, _ := ParseSuite("openings:20:8:2", nil)
	if a.ID() == b.ID() {
		t.Fatal("two seeds, one ID")
	}
	small, _ := hatetris.NewRules(6, 12, 4)
	if _, err := ParseSuite("records:3:1", small); err == nil {
		t.Fatal("record wells on a 6-wide well")
	}
	if _, err := ParseSuite("games:3:1:10", small); err == nil {
		t.Fatal("the lab's games on a 6-wide well")
	}
}

func TestOpeningsKeepTheirMemory(t *testing.T) {
	r := hatetris.Standard()
	starts, err := Openings(r, 30, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The first n openings of a longer list are the n openings.
	if short, _ := Openings(r, 20, 8, 1); short[19].Well != starts[19].Well {
		t.Fatal("the openings depend on how many are drawn")
	}
	for i, s := range starts {
		if len(s.History) != 8 || s.History[0] != (hatetris.Well{}) {
			t.Fatalf("opening %d: %d history wells", i, len(s.History))
		}
		// Replaying the opening's memory: every history well is followed
		// by an outcome of the piece the AI sends (with that memory).
		g := hatetris.NewGenerator(r)
		seen := hatetris.NewSeen()
		for k, w := range s.History {
			seen.Add(&w)
			_, out := g.Move(&w, hatetris.HATETRIS, seen, nil)
			next := s.Well
			if k+1 < len(s.History) {
				next = s.History[k+1]
			}
			found := false
			for _, o := range out {
				found = found || o.Well == next
			}
			if !found {
				t.Fatalf("opening %d step %d: the next well is not an outcome of the AI's piece", i, k)
			}
		}
	}
}

func TestRecordStartsKeepTheGame(t *testing.T) {
	starts, err := RecordStarts(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	games, _ := RecordGames()
	for _, s := range starts {
		i := strings.LastIndex(s.Label, " piece ")
		name := strings.TrimPrefix(s.Label[:i], "record ")
		k, err := strconv.Atoi(s.Label[i+len(" piece "):])
		if err != nil || k < 1 {
			t.Fatalf("label %q", s.Label)
		}
		if len(s.History) != k {
			t.Fatalf("%s: %d history wells", s.Label, len(s.History))
		}
		found := false
		for _, g := range games {
			if g.Name != name {
				continue
			}
			found = true
			if g.Steps[k].Before != s.Well || g.Steps[k].Score != s.Score || g.Steps[k-1].Before != s.History[k-1] {
				t.Fatalf("%s: the start is not the record's well", s.Label)
			}
		}
		if !found {
			t.Fatalf("%s: no such record", s.Label)
		}
	}
}

// A games: start is a spawn of one of the lab's games at the minimum score or
// more, with the game's memory up to it, and never a well of a world-record
// replay (the deep test set).
func TestGameStartsKeepTheGame(t *testing.T) {
	games, err := beams.All()
	if err != nil {
		t.Fatal(err)
	}
	records, err := RecordWells()
	if err != nil {
		t.Fatal(err)
	}
	var played [][]hatetris.Step
	for _, gm := range games {
		keys, _ := replaycodec.Decode(replaycodec.Base2048, gm.Replay)
		g, err := hatetris.Play(hatetris.Standard(), hatetris.HATETRIS, keys)
		if err != nil {
			t.Fatal(err)
		}
		played = append(played, g.Steps)
	}
	starts, err := GameStarts(games, 300, 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range starts {
		var i, k int
		if _, err := fmt.Sscanf(s.Label, "game %d", &i); err != nil {
			t.Fatalf("label %q", s.Label)
		}
		if _, err := fmt.Sscanf(s.Label[strings.LastIndex(s.Label, " piece ")+1:], "piece %d", &k); err != nil || k < 1 {
			t.Fatalf("label %q", s.Label)
		}
		steps := played[i-1]
		if steps[k].Before != s.Well || steps[k].Score != s.Score || s.Score < 20 || len(s.History) != k || s.History[k-1] != steps[k-1].Before {
			t.Fatalf("%s: not the game's spawn at 20 lines or more with its memory", s.Label)
		}
		if records[s.Well] {
			t.Fatalf("%s: a world-record well", s.Label)
		}
	}
	// The same seed draws the same starts; from a file, the same games.
	again, _ := GameStarts(games, 300, 5, 20)
	if again[299].Label != starts[299].Label {
		t.Fatal("not reproducible")
	}
	// The committed games: suites draw from the file's first
	// beams.SuiteGames games; a FILE's suite from all of its games.
	pool, err := beams.SuitePool()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.jsonl")
	var b strings.Builder
	for _, g := range pool {
		fmt.Fprintf(&b, "{\"score\":%d,\"replay\":%q}\n", g.Score, g.Replay)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := ParseSuite("games:50:5:20", nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseSuite("games:50:5:20:"+path, nil)
	if err != nil || a.ID() != f.ID() {
		t.Fatalf("the committed games and a copy of them: %v, IDs %s %s", err, a.ID(), f.ID())
	}
}

// The world records' own wells are excluded: a games file holding a world
// record's replay offers no start at all.
func TestGameStartsExcludeRecords(t *testing.T) {
	all, err := records.All()
	if err != nil {
		t.Fatal(err)
	}
	var games []beams.Game
	for _, r := range all {
		if r.Primary && r.Kind == "record" && r.AI == "HATETRIS" && r.Encoding == "Base2048" && r.Score >= 20 && r.Score < 1000 {
			games = append(games, beams.Game{Score: r.Score, Replay: r.Replay})
		}
	}
	if len(games) < 3 {
		t.Fatalf("%d Base2048 records", len(games))
	}
	if _, err := GameStarts(games, 10, 1, 0); err == nil || !strings.Contains(err.Error(), "no game has a spawn") {
		t.Fatalf("starts drawn from world records: %v", err)
	}
	if _, err := GameStarts([]beams.Game{{Replay: "not base2048 \x00"}}, 1, 1, 0); err == nil {
		t.Fatal("a bad replay accepted")
	}
}

// TestDeepSuitesShareMemory: the starts of one game share its spawn wells as
// their History, so a large records: suite takes memory in proportion to the
// records, not to its starts times their depth (records:20000:1 took about
// 2 GB when each start copied its memory).
func TestDeepSuitesShareMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := ParseSuite("records:20000:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 400<<20 {
		t.Fatalf("records:20000:1 allocated %d MB", grew>>20)
	}
	shared := 0
	first := map[string]*hatetris.Well{}
	for i := range s.Starts {
		st := &s.Starts[i]
		name := st.Label[:strings.LastIndex(st.Label, " piece ")]
		if p, ok := first[name]; ok && len(st.History) > 0 && p == &st.History[0] {
			shared++
		} else if !ok && len(st.History) > 0 {
			first[name] = &st.History[0]
		}
		if cap(st.History) != len(st.History) {
			t.Fatalf("%s: History has room to grow into the next start's", st.Label)
		}
	}
	if shared < len(s.Starts)/2 {
		t.Fatalf("only %d of %d starts share their game's memory", shared, len(s.Starts))
	}
}
