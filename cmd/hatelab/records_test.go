package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRecordID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"David & Felipe (6)", "david-felipe-6"},
		{"SDA (2)", "sda-2"},
		{"knewjade loop basis", "knewjade-loop-basis"},
		{"qntm", "qntm"},
		{"  --x--  ", "x"},
	} {
		if got := recordID(c.in); got != c.want {
			t.Errorf("recordID(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRecordsCommand lists the records and replays some by id, name and
// score: the scores are the dataset's.
func TestRecordsCommand(t *testing.T) {
	out, err := run(t, newRecordsCmd())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 28 || strings.Join(strings.Fields(lines[0]), " ") != "id score holder date AI kind" ||
		strings.Join(strings.Fields(lines[24]), " ") != "david-felipe-6 3711 David & Felipe 2025-04-08 HATETRIS record" {
		t.Errorf("hatelab records: %d lines (want a header and 27 records):\n%s", len(lines), out)
	}
	js, err := run(t, newRecordsCmd(), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var first recordJSON
	if err := json.Unmarshal([]byte(strings.SplitN(js, "\n", 2)[0]), &first); err != nil || first.ID != "qntm" || first.Replay == "" {
		t.Errorf("records --json first line: %+v, %v", first, err)
	}
	if strings.Contains(js, `\u0026`) {
		t.Error("records --json escapes & as \\u0026: a grep for \"David & Felipe\" fails")
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %q ends in spaces", l)
		}
	}
	for _, c := range []struct {
		args  []string
		score string // "" for an error
		err   string
	}{
		{[]string{"--record", "3711"}, "score:          3711", ""},
		{[]string{"--record", "david-felipe-1"}, "score:          86", ""},
		{[]string{"--record", "David & Felipe (1)"}, "score:          86", ""},
		{[]string{"--record", "SDA (2)"}, "score:          20", ""},
		{[]string{"--record", "tim-loop"}, "score:          244", ""}, // played against its own AI, Mild
		{[]string{"--record", "0"}, "score:          0", ""},
		{[]string{"--record", "nope"}, "", `--record "nope": no record has that id, name or score`},
		{[]string{"--record", "9999"}, "", `--record "9999": no record`},
		{[]string{"--record", ""}, "", "--record: empty"},
		{[]string{"--record", "3711", "DDDD"}, "", "--record and a REPLAY argument: give one of them"},
		{[]string{}, "", "want one REPLAY argument (or --record NAME"},
	} {
		out, err := run(t, newReplayCmd(), c.args...)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("replay %q: error %v, want %q", c.args, err, c.err)
		case c.err == "" && (err != nil || !strings.Contains(out, c.score+"\n")):
			t.Errorf("replay %q: %v, output starts %.80q; want %q", c.args, err, out, c.score)
		}
	}
	// --record picks the record's AI unless --ai names one: the Mild loop
	// under the real AI (the loop rule) ends otherwise.
	mild, err1 := run(t, newReplayCmd(), "--record", "tim-loop")
	real, err2 := run(t, newReplayCmd(), "--record", "tim-loop", "--ai", "hatetris")
	if err1 != nil || err2 != nil || mild == real {
		t.Errorf("--ai hatetris did not override the record's AI (Mild): %v %v", err1, err2)
	}
}
