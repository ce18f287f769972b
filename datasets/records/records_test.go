package records

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/replaycodec"
)

var dateRE = regexp.MustCompile(`^(19|20)\d\d(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$`)

// TestRecords checks every line: well-formed fields, a replay that the
// game's format sniffing decodes (as its stated encoding) to keystrokes, one
// primary line per name, and the record scores rising with time.
func TestRecords(t *testing.T) {
	recs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 30 {
		t.Fatalf("only %d lines", len(recs))
	}
	formats := map[string]replaycodec.Format{"raw": replaycodec.Raw, "hex": replaycodec.Hex, "Base65536": replaycodec.Base65536, "Base2048": replaycodec.Base2048}
	primaries := map[string]int{}
	names := map[string]Record{}
	for i, r := range recs {
		where := r.Name + " (" + r.Encoding + ")"
		if r.Name == "" || r.Holder == "" || r.Source == "" || !strings.Contains(r.Source, "test/components/Game/logic.test.ts") {
			t.Errorf("line %d %s: missing name, holder or source", i+1, where)
		}
		if r.AI != "HATETRIS" && r.AI != "HATETRIS Mild" {
			t.Errorf("%s: ai %q", where, r.AI)
		}
		switch r.Kind {
		case "record":
			if r.AI != "HATETRIS" || r.Year == 0 || r.Date == "" || r.LoopRanking != 0 {
				t.Errorf("%s: a record needs ai HATETRIS, a year and a date, and no loop ranking", where)
			}
		case "loop":
			if r.AI != "HATETRIS Mild" || r.LoopRanking <= 0 || r.LoopRanking > r.Score {
				t.Errorf("%s: a loop needs ai HATETRIS Mild and a loop ranking in 1..score", where)
			}
		case "other":
		default:
			t.Errorf("%s: kind %q", where, r.Kind)
		}
		if r.Year != 0 && (r.Year < 2010 || r.Year > 2026 || !strings.HasPrefix(r.Date, strconv.Itoa(r.Year))) {
			t.Errorf("%s: year %d, date %q", where, r.Year, r.Date)
		}
		if r.Date != "" && !dateRE.MatchString(r.Date) {
			t.Errorf("%s: date %q", where, r.Date)
		}
		if r.Score < 0 {
			t.Errorf("%s: score %d", where, r.Score)
		}
		want, ok := formats[r.Encoding]
		if !ok {
			t.Errorf("%s: encoding %q", where, r.Encoding)
		}
		keys, got, err := replaycodec.DecodeAuto(r.Replay)
		if err != nil || keys == "" || got != want {
			t.Errorf("%s: DecodeAuto gave %d keys as %v, %v", where, len(keys), got, err)
		}
		if r.Primary {
			primaries[r.Name]++
		}
		if prev, ok := names[r.Name]; ok && (prev.Score != r.Score || prev.Holder != r.Holder || prev.Kind != r.Kind) {
			t.Errorf("%s: differs from another line of the same name", where)
		}
		names[r.Name] = r
	}
	for name := range names {
		if primaries[name] != 1 {
			t.Errorf("%s: %d primary lines", name, primaries[name])
		}
	}
	// World records only ever go up, in date order.
	last := Record{}
	for _, r := range recs {
		if r.Kind != "record" || !r.Primary {
			continue
		}
		if dateBefore(r.Date, last.Date) || r.Score <= last.Score {
			t.Errorf("record %s (%d, %s) does not beat %s (%d, %s)", r.Name, r.Score, r.Date, last.Name, last.Score, last.Date)
		}
		last = r
	}
	if last.Score != 3711 || last.Holder != "David & Felipe" {
		t.Errorf("last record %s %d, want David & Felipe's 3711", last.Holder, last.Score)
	}
}

// dateBefore reports whether date a is surely before date b, comparing them
// to the precision of the less precise one ("2010" is not before "2010-04").
func dateBefore(a, b string) bool {
	n := min(len(a), len(b))
	return a[:n] < b[:n]
}

// TestPlay: every world record's primary line replays, through the one
// replayer, to its dataset score against its AI; a damaged replay is one
// line naming the record.
func TestPlay(t *testing.T) {
	recs, err := WorldRecords()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 10 {
		t.Fatalf("%d world records", len(recs))
	}
	for _, r := range recs {
		keys, g, err := r.Play()
		if err != nil {
			t.Fatal(err)
		}
		if g.Score != r.Score || keys == "" || r.Kind != "record" || !r.Primary {
			t.Errorf("%s: replays to %d, dataset %d", r.Name, g.Score, r.Score)
		}
	}
	bad := recs[0]
	bad.Replay = "not a replay"
	if _, _, err := bad.Play(); err == nil || !strings.Contains(err.Error(), "record "+bad.Name+": ") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a damaged replay: %v", err)
	}
}
