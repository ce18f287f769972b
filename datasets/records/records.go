// Package records is the HATETRIS records dataset: every world-record replay
// from 2010 to the 3,711-line game, plus the loop replays and other replays
// the notebooks use, each exactly as it appears in the real game's test
// suite, with holder, date and score. The data is records.jsonl in this
// directory (provenance in README.md); All parses it.
package records

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed records.jsonl
var recordsJSONL []byte

// Record is one replay string of records.jsonl. A record published in
// several encodings has one line per encoding; Primary marks one of them.
type Record struct {
	// Name is the replay's name in the game's test suite, e.g. "SDA (2)".
	Name string `json:"name"`
	// Holder is who set it, e.g. "David & Felipe".
	Holder string `json:"holder"`
	// Year is the year of the record (0 when unknown).
	Year int `json:"year,omitempty"`
	// Date is as precise a date as the sources give: YYYY, YYYY-MM or
	// YYYY-MM-DD ("" when unknown).
	Date string `json:"date,omitempty"`
	// Score is the number of lines the replay scores against AI.
	Score int `json:"score"`
	// AI is "HATETRIS" or "HATETRIS Mild" (the AI without the loop rule).
	AI string `json:"ai"`
	// Kind is "record" (a world record), "loop" (a replay that loops
	// forever against HATETRIS Mild; it ends mid-game) or "other".
	Kind string `json:"kind"`
	// Encoding is "raw", "hex", "Base65536" or "Base2048".
	Encoding string `json:"encoding"`
	// Primary is true on exactly one line per Name: the Base2048 replay
	// when there is one.
	Primary bool `json:"primary"`
	// Replay is the replay string exactly as in the game's test suite.
	Replay string `json:"replay"`
	// LoopRanking is qntm's loop-leaderboard ranking (lines cleared when the
	// game first repeats) for loops; 0 otherwise.
	LoopRanking int `json:"loop_ranking,omitempty"`
	// Source names the test file of the real game (qntm/hatetris) the
	// replay comes from, and the references for holder and date.
	Source string `json:"source"`
	// Note is an optional remark.
	Note string `json:"note,omitempty"`
}

// All parses records.jsonl.
func All() ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(recordsJSONL))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		var r Record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("records.jsonl line %d: %v", line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("records.jsonl: %v", err)
	}
	return out, nil
}
