package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/replaycodec"
)

// TestBeamCommand runs a small search with --json, checks the exact keys of
// the object and replays it through `hatelab replay --json`. It is the
// README's `hatelab beam --json --beam-width 1000 --quiescence` at width 60:
// the default evaluation, tuned, plays its exact game, 16 lines in 73
// pieces (hand's is 5 in 46). At width 1,000 they are 54 in 168 and 9 in
// 55: the same code on a wider beam, some 17 s on two cores.
func TestBeamCommand(t *testing.T) {
	out, err := run(t, newBeamCmd(), "--json", "--beam-width", "60", "--quiescence", "--workers", "2")
	if err != nil {
		t.Fatal(err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(lines[0], "evaluation hand:tuned-03[") || !strings.HasPrefix(lines[1], "level    1") {
		t.Fatalf("no evaluation line and progress line: %q", lines[:2])
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(last), &m); err != nil {
		t.Fatal(err, last)
	}
	for _, k := range []string{"score", "pieces_placed", "keys", "replay", "seconds", "children"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("missing %q in %s", k, last)
		}
	}
	if len(m) != 6 {
		t.Fatalf("extra keys in %s", last)
	}
	res := verifyBeamReplay(t, last)
	if res.Score != 16 || res.PiecesPlaced != 73 {
		t.Fatalf("width 60 with quiescence scored %d in %d pieces, want tuned's 16 in 73", res.Score, res.PiecesPlaced)
	}
	keys, _, err := replaycodec.DecodeAuto(res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := hatetris.Play(hatetris.Standard(), hatetris.HATETRIS, res.Keys); err != nil || g.Score != res.Score || !strings.HasPrefix(keys, res.Keys) {
		t.Fatalf("keys do not replay: %v", err)
	}
}

func TestBeamCommandText(t *testing.T) {
	dir := t.TempDir()
	// The old flag names still work for one release, each with a
	// deprecation line.
	out, err := run(t, newBeamCmd(), "--width", "20", "--max-depth", "8", "--checkpoint", dir)
	if err != nil || !strings.Contains(out, "replay:") {
		t.Fatal(err, out)
	}
	for _, want := range []string{"--width has been deprecated, use --beam-width", "--max-depth has been deprecated, use --max-pieces", "level    8 "} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	// The same command again without --resume must not discard the checkpoint.
	if out, err := run(t, newBeamCmd(), "--beam-width", "20", "--max-pieces", "8", "--checkpoint", dir); err == nil || !strings.Contains(err.Error(), "earlier search") {
		t.Fatalf("a second search over the checkpoint: %v\n%s", err, out)
	}
	out2, err := run(t, newBeamCmd(), "--beam-width", "20", "--max-pieces", "10", "--checkpoint", dir, "--resume")
	if err != nil || !strings.Contains(out2, "level    9") || strings.Contains(out2, "level    8 ") || strings.Contains(out2, "deprecated") {
		t.Fatal(err, out2)
	}
}

// TestBeamResumeOldDefault: a checkpoint of a search begun with hand,
// the default --eval before tuned, resumed without --eval is refused with
// one line that says to resume it with --eval hand, which then resumes it;
// a checkpoint of tuned resumes without --eval.
func TestBeamResumeOldDefault(t *testing.T) {
	for _, tc := range []struct {
		name    string
		begin   []string // --eval of the first search
		resume  []string // --eval of the resumed one
		wantErr string
	}{
		{"hand, resumed by default", []string{"--eval", "hand"}, nil, "the default --eval before tuned: resume it with --eval hand"},
		{"hand, resumed with hand", []string{"--eval", "hand"}, []string{"--eval", "hand"}, ""},
		{"tuned by default, resumed by default", nil, nil, ""},
		{"tuned, resumed with hand", []string{"--eval", "tuned"}, []string{"--eval", "hand"}, "checkpoint was made with"},
	} {
		dir := t.TempDir()
		if out, err := run(t, newBeamCmd(), append([]string{"--beam-width", "10", "--max-pieces", "4", "--checkpoint", dir}, tc.begin...)...); err != nil {
			t.Fatal(tc.name, err, out)
		}
		out, err := run(t, newBeamCmd(), append([]string{"--beam-width", "10", "--max-pieces", "6", "--checkpoint", dir, "--resume"}, tc.resume...)...)
		if tc.wantErr == "" {
			if err != nil || !strings.Contains(out, "level    6") || strings.Contains(out, "level    4 ") {
				t.Errorf("%s: %v\n%s", tc.name, err, out)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", tc.name, err, tc.wantErr)
		} else if strings.Contains(tc.wantErr, "checkpoint") && strings.Contains(err.Error(), "resume it with --eval hand") {
			t.Errorf("%s: %v: the hint is for hand's checkpoints only", tc.name, err)
		}
	}
}

func TestBeamCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--beam-width", "0"},
		{"--resume"},
		{"--eval", ""},
		{"--eval", "nnue+sz-holes"},
		{"--weights", "/nonexistent/w.json"},
		{"--well-width", "3"},
		{"--beam-width", "10", "--checkpoint", "/nonexistent-dir-for-test", "--resume"},
		{"extra"},
	} {
		if _, err := run(t, newBeamCmd(), args...); err == nil {
			t.Fatalf("%v: no error", args)
		} else if _, rt := err.(runtimeError); rt {
			t.Fatalf("%v: runtime error %v, want an input error", args, err)
		}
	}
}

// verifyBeamReplay parses the last line of `hatelab beam --json` and checks
// that `hatelab replay --json` of its replay ends the game with the same
// score and piece count.
func verifyBeamReplay(t *testing.T, last string) beamJSON {
	t.Helper()
	var res beamJSON
	if err := json.Unmarshal([]byte(last), &res); err != nil {
		t.Fatal(err, last)
	}
	rout, err := runJSON(t, newReplayCmd(), `"pieces"`, "--json", res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	var rep replayJSON
	if err := json.Unmarshal([]byte(rout), &rep); err != nil {
		t.Fatal(err, rout)
	}
	if rep.Score != res.Score || rep.PiecesPlaced != res.PiecesPlaced || !rep.GameOver {
		t.Fatalf("replay says %d in %d, beam %d in %d", rep.Score, rep.PiecesPlaced, res.Score, res.PiecesPlaced)
	}
	return res
}

// TestBeamEvalSpecs: beam --eval reads the arm specs of hatelab arena
// (issue 28) besides its old values: the same evaluation by either name
// plays the same game; without --eval the game is tuned's (the weights of
// datasets/weights/tuned-03.json), --eval hand still D&F's, and --weights
// FILE alone FILE's hand-made weights; an arm's search suffix, --weights
// with a spec, and an unknown spec are one-line errors naming --eval (or
// --weights).
func TestBeamEvalSpecs(t *testing.T) {
	game := func(args ...string) (beamJSON, error) {
		out, err := run(t, newBeamCmd(), append([]string{"--json", "--beam-width", "20", "--max-pieces", "12", "--workers", "1"}, args...)...)
		var res beamJSON
		if err == nil {
			err = json.Unmarshal([]byte(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]), &res)
		}
		return res, err
	}
	hand, err := game("--eval", "hand")
	if err != nil {
		t.Fatal(err)
	}
	tuned, err := game()
	if err != nil {
		t.Fatal(err)
	}
	net, err := game("--eval", "nnue", "--weights", gen0Weights)
	if err != nil {
		t.Fatal(err)
	}
	best, err := game("--eval", "nnue:../../datasets/weights/"+weights.BestNetworkFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		same    *beamJSON // the game it must equal (nil: any game)
		wantErr string
	}{
		{"default is tuned-03.json", []string{"--eval", "weights:../../datasets/weights/tuned-03.json"}, &tuned, ""},
		{"tuned", []string{"--eval", "tuned"}, &tuned, ""},
		{"weights file alone: tuned-03.json", []string{"--weights", "../../datasets/weights/tuned-03.json"}, &tuned, ""},
		{"weights file alone: dnf86.json", []string{"--weights", "../../datasets/weights/dnf86.json"}, &hand, ""},
		{"hand is dnf86.json", []string{"--eval", "weights:../../datasets/weights/dnf86.json"}, &hand, ""},
		{"tuned and --weights", []string{"--eval", "tuned", "--weights", "../../datasets/weights/dnf86.json"}, nil, "--weights goes with --eval hand or nnue; --eval tuned has its own weights (datasets/weights/tuned-03.json): for other weights use --eval weights:FILE"},
		{"tuned-TERM", []string{"--eval", "tuned-rows-with-holes"}, nil, ""},
		{"tuned-TERM at 0", []string{"--eval", "tuned-holes"}, nil, "--eval \"tuned-holes\": weights tuned-03: holes is already 0"},
		{"old HAND", []string{"--eval", "HAND"}, &hand, ""},
		{"old hand with its weights file", []string{"--eval", "hand", "--weights", "../../datasets/weights/dnf86.json"}, &hand, ""},
		{"weights:FILE", []string{"--eval", "weights:../../datasets/weights/dnf86.json"}, &hand, ""},
		{"nnue:FILE", []string{"--eval", "nnue:" + gen0Weights}, &net, ""},
		{"score", []string{"--eval", "score"}, nil, ""},
		{"hand-holes", []string{"--eval", "hand-holes"}, nil, ""},
		{"hand+stack-height", []string{"--eval", "hand+stack-height"}, nil, ""},
		{"hand+g", []string{"--eval", "hand+g:10:../../datasets/flats/records.json"}, nil, ""},
		{"@w suffix", []string{"--eval", "hand@w300"}, nil, "--eval \"hand@w300\": the suffix @w300 sets an arena arm's own search, not an evaluation (for one game: --beam-width N, --quiescence)"},
		{"@q suffix", []string{"--eval", "score@q"}, nil, "the suffix @q sets an arena arm's own search"},
		{"spec and --weights", []string{"--eval", "score", "--weights", "../../datasets/weights/dnf86.json"}, nil, "--weights goes with --eval hand or nnue"},
		{"unknown", []string{"--eval", "bogus"}, nil, "--eval \"bogus\": unknown evaluation \"bogus\""},
		{"unknown term", []string{"--eval", "hand-nothing"}, nil, "--eval \"hand-nothing\": "},
		{"missing network", []string{"--eval", "nnue:missing.hlnn"}, nil, "--eval \"nnue:missing.hlnn\": "},
		{"nnue alone: the best network", []string{"--eval", "nnue"}, &best, ""},
		{"empty", []string{"--eval", ""}, nil, "--eval \"\": empty evaluation"},
		{"a rule twice", []string{"--eval", "hand+sz-holes+sz-holes"}, nil, "rule sz-holes is named twice"},
		{"the score term removed", []string{"--eval", "tuned-score"}, nil, "the score term (lines cleared) cannot be removed"},
		{"table of another width", []string{"--eval", "hand+g:10:../../datasets/flats/records.json", "--well-width", "8"}, nil, "is for wells 10 wide, not 8"},
	} {
		got, err := game(tc.args...)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want one line with %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.PiecesPlaced == 0 || got.Replay == "" {
			t.Errorf("%s: %+v, %v", tc.name, got, err)
			continue
		}
		if tc.same != nil && (got.Replay != tc.same.Replay || got.Score != tc.same.Score) {
			t.Errorf("%s: game %d %q, want %d %q", tc.name, got.Score, got.Replay, tc.same.Score, tc.same.Replay)
		}
	}
	if f := newBeamCmd().Flags().Lookup("eval"); f.DefValue != "tuned" || !strings.Contains(newBeamCmd().Long, "tuned           the best hand-made evaluation in the arena") {
		t.Errorf("--eval: default %q, help %q", f.DefValue, f.Usage)
	}
	if hand.Replay == net.Replay || hand.Replay == tuned.Replay {
		t.Errorf("hand plays the same game as nnue or tuned: the test cannot tell them apart")
	}
}
