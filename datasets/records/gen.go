//go:build ignore

// gen writes records.jsonl from the replays of the real game's test suite
// (../../engine/replaycodec/testdata/known_replays.jsonl, extracted from
// qntm/hatetris) and the history below (holders and dates from the blog
// posts and komments named in README.md). Run: go run gen.go
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log"
	"os"

	"github.com/hatelab/hatelab/datasets/records"
)

const (
	part1    = `D&F, "Getting the World Record in HATETRIS" (Hall of Dreams blog, 2022-08-11)`
	part2    = `D&F, "Losing the World Record in HATETRIS" (Hall of Dreams blog, 2023-06-30)`
	dfReadme = "thecog19/HATETRIS-public-beamsearch README"
)

// meta is what the test suite does not say about a replay.
type meta struct {
	name, holder string
	year         int
	date         string
	kind         string
	loopRanking  int
	history      string // references for holder and date
	note         string
}

// history lists the replays in the order of the dataset (by date).
var history = []meta{
	{"qntm", "qntm", 2010, "2010-04", "other", 0, part1,
		"qntm's all-Down replay (0 lines) from the test suite; his first 5-point game and the 7-point claims that followed were not preserved"},
	{"Atypical", "Atypical", 2010, "2010-04", "record", 0, part1 + "; qntm.org/hatetris comments", "first posted replay; the \"Atypical strategy\" (pseudoloop)"},
	{"SDA (1)", "SDA Guest", 2010, "2010-04", "record", 0, part1 + "; qntm.org/hatetris comments", ""},
	{"SDA (2)", "SDA Guest", 2010, "2010-04", "record", 0, part1 + "; qntm.org/hatetris comments", ""},
	{"Ivenris", "Ivenris", 2010, "2010-04", "record", 0, part1 + "; qntm.org/hatetris comments", ""},
	{"SDA (3)", "SDA Guest", 2010, "2010", "record", 0, part1 + "; qntm.org/hatetris comments", ""},
	{"Deasuke", "Deasuke", 2010, "2010-05", "record", 0, part1 + "; qntm.org/hatetris comments", "pseudoloop repeated three times"},
	{"chromeyhex", "chromeyhex", 2017, "2017-06-06", "record", 0, "qntm.org/hatetris komment 593722b6a1beb; " + part1, ""},
	{"knewjade (1)", "knewjade", 2021, "2021-06", "record", 0, `knewjade, "What I did to get 66L in HATETRIS" (gist); ` + part1, "exhaustive search over the ending of the 31-line record"},
	{"knewjade (2)", "knewjade", 2021, "2021-06", "record", 0, `knewjade, "What I did to get 66L in HATETRIS" (gist); ` + part1, "beam search, 1M"},
	{"knewjade (3)", "knewjade", 2021, "2021-06", "record", 0, `knewjade, "What I did to get 66L in HATETRIS" (gist); ` + part1, "beam search, 1M; the 45-line record that followed is not in the test suite"},
	{"knewjade (4)", "knewjade", 2021, "2021-08-23", "record", 0, "qntm.org/hatetris komment 61238cbbd3612; " + `knewjade, "What I did to get 66L in HATETRIS" (gist)`, "beam search, 25M"},
	{"David & Felipe (1)", "David & Felipe", 2022, "2022-05-29", "record", 0, "qntm.org/hatetris komment 6293f5024978c; " + part1, "heuristic beam search, 25M"},
	{"David & Felipe (2)", "David & Felipe", 2022, "2022-11", "record", 0, part2 + "; test suite commit of 2022-11-08", "bird-in-hand lookahead, 1M beam"},
	{"David & Felipe (3)", "David & Felipe", 2022, "2022-11", "record", 0, part2 + "; test suite commit of 2022-11-26", ""},
	{"Tim (1)", "Tim", 2022, "2022-11", "record", 0, part2, "Tim's 170 that followed is not in the test suite"},
	{"Tim (2)", "Tim", 2022, "2022-11-24", "record", 0, part2, "2.5M beam"},
	{"knewjade (5)", "knewjade", 2022, "2022-11-26", "record", 0, "qntm.org/hatetris komment 63818f793a198; " + part2, "neural-network (NNUE) beam search; D&F's Part 2 calls it the first game to trigger the loop rule, but no version of the rule acts in this replay (no spawn where a piece has a previously seen well among its outcomes: lab/records.AuditLoops)"},
	{"knewjade loop basis", "knewjade", 0, "", "other", 0, `knewjade's loop replay gist (replay_fired_leadsIntoCycle); ` + part2,
		"knewjade's loop played against full HATETRIS: the loop rule fires and the game ends"},
	{"knewjade loop", "knewjade", 0, "", "loop", 105, "qntm.org/loops leaderboard; " + part2, "the test suite repeats the loop 11 times against HATETRIS Mild; 95 lines + 10 per cycle"},
	{"Tim loop", "Tim", 2022, "2022-11", "loop", 84, "qntm.org/loops leaderboard; " + part2 + " (Tim hit a loop the day after 2022-11-26)", "68 lines + 16 per cycle"},
	{"David & Felipe (4)", "David & Felipe", 2023, "2023-03-05", "record", 0, "qntm.org/hatetris komment 6404c2c374fee; " + dfReadme, "public NNUE code, generation 5"},
	{"David & Felipe (5)", "David & Felipe", 2024, "2024-09-04", "record", 0, "qntm.org/hatetris komment 66d89ea487f7b; " + dfReadme, "generation 6, loop-aware code"},
	{"David & Felipe (6)", "David & Felipe", 2025, "2025-04-08", "record", 0, "qntm/hatetris commit 1f1e36a (2025-04-08), the date the replay entered the test suite",
		"the current world record (9,309 pieces); method unpublished"},
	{"David & Felipe loop", "David & Felipe", 2026, "2026-06-29", "loop", 20, "qntm.org/loops leaderboard; test suite (added 2026-06-29)", "10 lines + 10 per cycle"},
	{"David & Felipe loop 2", "David & Felipe", 2026, "2026-06-30", "loop", 19, "qntm.org/loops leaderboard; test suite (added 2026-06-30)", "9 lines + 10 per cycle"},
	{"David & Felipe loop 3", "David & Felipe", 2026, "2026-08-06", "loop", 17, "qntm.org/loops leaderboard; test suite (added 2026-08-06)", "7 lines + 10 per cycle"},
}

// skipped are test-suite replays that are not HATETRIS records or loops.
var skipped = map[string]bool{
	"demo": true, "LOVETRIS 187 x Down (replay-out)": true, "too-long replay (hex, all Down)": true,
	"too-short replay": true, "incomplete game": true, "codec unit example": true,
}

type known struct {
	Name       string `json:"name"`
	AI         string `json:"ai"`
	Source     string `json:"source"`
	Encoding   string `json:"encoding"`
	Replay     string `json:"replay"`
	FinalScore int    `json:"final_score"`
}

func main() {
	f, err := os.Open("../../engine/replaycodec/testdata/known_replays.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	byName := map[string][]known{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var k known
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			log.Fatal(err)
		}
		byName[k.Name] = append(byName[k.Name], k)
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer
	used := map[string]bool{}
	encOrder := map[string]int{"hex": 0, "Base65536": 1, "raw": 2, "Base2048": 3}
	for _, m := range history {
		reps := byName[m.name]
		if len(reps) == 0 {
			log.Fatalf("%s: not in known_replays.jsonl", m.name)
		}
		used[m.name] = true
		primary := reps[0]
		for _, k := range reps {
			if encOrder[k.Encoding] > encOrder[primary.Encoding] {
				primary = k
			}
		}
		for e := 0; e < 4; e++ {
			for _, k := range reps {
				if encOrder[k.Encoding] != e {
					continue
				}
				r := records.Record{Name: m.name, Holder: m.holder, Year: m.year, Date: m.date, Score: k.FinalScore, AI: k.AI,
					Kind: m.kind, Encoding: k.Encoding, Primary: k.Encoding == primary.Encoding, Replay: k.Replay,
					LoopRanking: m.loopRanking, Source: "replay: " + "qntm/hatetris " + k.Source + "; history: " + m.history, Note: m.note}
				line, err := json.Marshal(r)
				if err != nil {
					log.Fatal(err)
				}
				out.Write(line)
				out.WriteByte('\n')
			}
		}
	}
	for name := range byName {
		if !used[name] && !skipped[name] {
			log.Fatalf("%s: in known_replays.jsonl but neither in history nor skipped", name)
		}
	}
	if err := os.WriteFile("records.jsonl", out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
