package evalspec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestParse: every form of the grammar, and the specs that say nothing or
// contradict themselves refused in one line.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec, name, err string // name: a part of the evaluation's name
	}{
		{"hand", "hand:dnf86[", ""},
		{" tuned ", "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]", ""},
		{"score", "dnf86-score-only", ""},
		{"hand-holes", "dnf86-holes", ""},
		{"tuned-row-transitions", "tuned-03-row_transitions", ""},
		{"hand+stack-height", "hand:dnf86+stack-height[", ""},
		{"hand+sz-holes+sz-two-well", "dnf86+sz-holes+sz-two-well", ""},
		{"weights:../../datasets/weights/tuned-03.json", "hand:tuned-03[", ""},
		{"nnue:../../datasets/weights/gen-00.hlnn", "nnue:", ""},
		{"nnue", "nnue:", ""},
		{"nnue+h:0.002:tuned", "0.002*hand:tuned-03[", ""},
		{"nnue:../../datasets/weights/gen-00.hlnn+h:1e-3:hand+sz-holes", "0.001*hand:dnf86+sz-holes[", ""},
		{"nnue+h:0.002:tuned+g:1:/no/such/table.json", "", "no such file"},
		{"tuned+n:20:1", "hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80] noise 20 seed 1", ""},
		{"nnue+h:0.002:tuned+n:0.05:18446744073709551615", "noise 0.05 seed 18446744073709551615", ""},
		{"hand+sz-holes+n:1e-3:7", "dnf86+sz-holes[", ""},
		{"tuned+n:20", "", "want +n:DEVIATION:SEED"},
		{"tuned+n:20:", "", "want +n:DEVIATION:SEED"},
		{"tuned+n:0:1", "", "deviation \"0\": want a number above 0"},
		{"tuned+n:-1:1", "", "deviation \"-1\""},
		{"tuned+n:NaN:1", "", "deviation \"NaN\""},
		{"tuned+n:Inf:1", "", "deviation \"Inf\""},
		{"tuned+n:1e7:1", "", "at most 1e+06"},
		{"tuned+n:1:0", "", "seed \"0\": want a decimal number from 1"},
		{"tuned+n:1:01", "", "seed \"01\""},
		{"tuned+n:1:18446744073709551616", "", "seed \"18446744073709551616\""},
		{"tuned+n:1:x", "", "seed \"x\""},
		{"bogus+n:1:1", "", "unknown evaluation"},
		// Nothing said, or said against itself.
		{"", "", "empty evaluation"},
		{"   ", "", "empty evaluation"},
		{"tuned-score", "", "score term (lines cleared) cannot be removed"},
		{"hand-score", "", "cannot be removed"},
		{"hand+sz-holes+sz-holes", "", "rule sz-holes is named twice"},
		{"hand+stack-height+stack-height", "", "named twice"},
		{"hand+", "", "unknown rule \"\""},
		{"hand-holes-holes", "", "unknown term"},
		{"tuned-holes", "", "holes is already 0"},
		{"nnue+sz-holes", "", "rules (+sz-holes) are for hand-made evaluations"},
		{"nnue:", "", "names no file"},
		{"weights:", "", "names no file"},
		{"hand+g:0:x.json", "", "adds nothing"},
		{"hand+g:1", "", "WEIGHT:TABLE"},
		{"hand+g:NaN:x.json", "", "weight"},
		{"hand+g:1:/no/such/table.json", "", "no such file"},
		{"nnue:/no/such.hlnn", "", "no such file"},
		{"random", "", "unknown evaluation \"random\""},
		{"Hand", "", "unknown evaluation"},
		{"tuned@w300", "", "the suffix @w300 sets an arena arm's own search"},
		{"tuned+h:0.002:hand", "", "adds a hand-made evaluation to a network"},
		{"nnue+h:0.002", "", "want +h:WEIGHT:HAND"},
		{"nnue+h:0.002:", "", "want +h:WEIGHT:HAND"},
		{"nnue+h:0:tuned", "", "above 0"},
		{"nnue+h:-1:tuned", "", "above 0"},
		{"nnue+h:x:tuned", "", "h term weight"},
		{"nnue+h:0.002:nnue", "", "want a hand-made evaluation"},
		{"nnue+h:0.002:random", "", "unknown evaluation"},
		{"nnue+h:0.002:tuned-score", "", "cannot be removed"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			ev, err := Parse(tc.spec, "", nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("Parse(%q) = %v, want a one-line error about %q", tc.spec, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ev.Name(), tc.name) {
				t.Fatalf("Parse(%q) = %s, want a name with %q", tc.spec, ev.Name(), tc.name)
			}
		})
	}
}

// TestHybrid: a hybrid's value is the network's plus W times the
// hand-made evaluation's, on wells reached one piece from a parent (the
// network's incremental path) and from scratch; it keeps the hand-made
// worker's quiescence clears.
func TestHybrid(t *testing.T) {
	r := hatetris.Standard()
	const w = 0.0025
	hy, err := Parse("nnue+h:0.0025:tuned", "", r)
	if err != nil {
		t.Fatal(err)
	}
	net, _ := Parse("nnue", "", r)
	hand, _ := Parse("tuned", "", r)
	hw, nw, tw := hy.NewWorker(r), net.NewWorker(r), hand.NewWorker(r)
	if _, ok := hw.(eval.ClearsWorker); !ok {
		t.Fatal("the hybrid's worker reports no quiescence clears")
	}
	pw, ok := hw.(eval.ParentWorker)
	if !ok {
		t.Fatal("the hybrid's worker takes no parent: the network is not incremental in it")
	}
	g := hatetris.NewGenerator(r)
	var parent hatetris.Well
	n := 0
	for step := 0; step < 12; step++ {
		outs := g.Outcomes(&parent, hatetris.Piece(step%hatetris.NumPieces), nil)
		pw.SetParent(&parent)
		for _, o := range outs {
			if o.GameOver {
				continue
			}
			got := hw.Evaluate(&o.Well, 3, 1)
			want := nw.Evaluate(&o.Well, 3, 1) + w*tw.Evaluate(&o.Well, 3, 1)
			if diff := got - want; diff > 1e-9 || diff < -1e-9 {
				t.Fatalf("step %d: hybrid %v, network + %g tuned %v", step, got, w, want)
			}
			n++
		}
		parent = outs[len(outs)/2].Well
	}
	if n < 100 {
		t.Fatalf("only %d wells checked", n)
	}
}

// TestHybridParts: a hybrid's hand-made part, its spec and weight; other
// specs are no hybrid, and a hybrid Parse refuses is an error.
func TestHybridParts(t *testing.T) {
	for _, tc := range []struct {
		spec, hand string
		w          float64
		ok         bool
		err        string
	}{
		{"nnue+h:0.0025:tuned", "tuned", 0.0025, true, ""},
		{" nnue:../../datasets/weights/gen-00.hlnn+h:1e-3:hand+sz-holes ", "hand+sz-holes", 0.001, true, ""},
		{"tuned", "", 0, false, ""},
		{"nnue", "", 0, false, ""},
		{"nnue+h:0.002:tuned+n:1:1", "", 0, false, ""},
		{"nnue+h:0.002:tuned+g:1:x.json", "", 0, false, ""},
		{"nnue+h:0:tuned", "", 0, false, "above 0"},
		{"tuned+h:0.002:hand", "", 0, false, "adds a hand-made evaluation to a network"},
	} {
		part, hand, w, ok, err := HybridParts(tc.spec, "")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("HybridParts(%q): %v, want an error about %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || ok != tc.ok || hand != tc.hand || w != tc.w {
			t.Errorf("HybridParts(%q) = %q, %v, %v, %v; want %q, %v, %v", tc.spec, hand, w, ok, err, tc.hand, tc.w, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		// The part is W times the hand-made evaluation.
		h, err := Parse(hand, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		r := hatetris.Standard()
		var well hatetris.Well
		well[r.Depth-1] = 0b0111111110
		if got, want := part.NewWorker(r).Evaluate(&well, 3, 1), w*h.NewWorker(r).Evaluate(&well, 3, 1); got != want || want == 0 {
			t.Errorf("HybridParts(%q): the part's value %v, want %v", tc.spec, got, want)
		}
	}
}

// TestDir: relative files are read from dir.
func TestDir(t *testing.T) {
	ev, err := Parse("weights:tuned-03.json", "../../datasets/weights", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name() != eval.NewHand(eval.TunedWeights()).Name() {
		t.Fatalf("name %s", ev.Name())
	}
}

// TestGeometry: a network is refused on a well it was not trained for.
func TestGeometry(t *testing.T) {
	r, err := hatetris.NewRules(8, 16, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("nnue", "", r); err == nil || !strings.Contains(err.Error(), "network is for 10x16 wells") {
		t.Fatalf("nnue on 8x12: %v", err)
	}
	if _, err := Parse("hand+stack-height", "", r); err != nil {
		t.Fatal(err)
	}
}

// TestBestNetwork: the spec nnue is the network of the file
// weights.BestNetworkFile names (the embedded copy is that file, byte for
// byte), the same evaluation as nnue:FILE.
func TestBestNetwork(t *testing.T) {
	path := filepath.Join("../../datasets/weights", weights.BestNetworkFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, weights.BestNetwork) {
		t.Fatalf("weights.BestNetwork is not %s: change the embed line with the constant", weights.BestNetworkFile)
	}
	best, err := Parse(BestNetwork, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	file, err := Parse("nnue:"+path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if best.Name() != file.Name() {
		t.Fatalf("nnue = %s, nnue:%s = %s", best.Name(), path, file.Name())
	}
}

// TestFromFlags: --eval NAME --weights FILE as one spec.
func TestFromFlags(t *testing.T) {
	for _, tc := range []struct{ name, file, spec, err string }{
		{"tuned", "", "tuned", ""},
		{"nnue", "", "nnue", ""},
		{"hand+stack-height", "", "hand+stack-height", ""},
		{"hand", "w.json", "weights:w.json", ""},
		{"nnue", "n.hlnn", "nnue:n.hlnn", ""},
		{"tuned", "w.json", "", "has its own weights"},
		{"score", "w.json", "", "name the file in the spec"},
	} {
		spec, err := FromFlags(tc.name, tc.file)
		if spec != tc.spec || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("FromFlags(%q, %q) = %q, %v; want %q, %q", tc.name, tc.file, spec, err, tc.spec, tc.err)
		}
	}
}

// TestHand: the weights of hand-made specs; a network is refused.
func TestHand(t *testing.T) {
	w, err := Hand("tuned", "")
	if err != nil || w != eval.TunedWeights() {
		t.Fatalf("Hand(tuned) = %v, %v", w.Name, err)
	}
	if _, err := Hand("nnue", ""); err == nil || !strings.Contains(err.Error(), "want a hand-made evaluation") {
		t.Fatalf("Hand(nnue) = %v", err)
	}
}

// TestHelp: the help names every base and rule, one a line, and no line
// runs past 110 characters.
func TestHelp(t *testing.T) {
	for _, want := range []string{"tuned", "hand", "score", "nnue", "nnue:FILE", "weights:FILE", "hand-TERM", "HAND+RULE", "NET+h:W:HAND", "sz-holes", "sz-two-well", "stack-height", "+g:W:TABLE", weights.BestNetworkFile} {
		if !strings.Contains(Help, want) {
			t.Errorf("Help lacks %q", want)
		}
	}
	for _, l := range strings.Split(Help, "\n") {
		if len(l) > 110 {
			t.Errorf("Help line of %d characters: %s", len(l), l)
		}
	}
}

// FuzzParse: any spec gives an evaluation or a one-line error, never a
// panic; an evaluation's name is stable across two parses.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"hand", "tuned", "score", "nnue", "hand-holes", "tuned+sz-two-well", "hand+stack-height",
		"hand+sz-holes+sz-holes", "tuned-score", "", "weights:", "nnue:", "hand+g:1:x", "hand+g:1e400:x", "+g:", "hand+",
		"hand+n:1:1", "tuned+n:0:1", "+n:", "nnue+h:0.002:tuned+n:1e-3:7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.ContainsAny(spec, ":/\\") && !strings.HasPrefix(spec, "hand") {
			// Keep the fuzzer off the file system: files are the readers' tests.
			return
		}
		if strings.Contains(spec, "weights:") || strings.Contains(spec, "nnue:") || strings.Contains(spec, "+g:") {
			return
		}
		ev, err := Parse(spec, t.TempDir(), nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("Parse(%q): a multi-line error %q", spec, err)
			}
			return
		}
		again, err := Parse(spec, t.TempDir(), nil)
		if err != nil || again.Name() != ev.Name() {
			t.Fatalf("Parse(%q) twice: %s then %v, %v", spec, ev.Name(), again, err)
		}
	})
}
