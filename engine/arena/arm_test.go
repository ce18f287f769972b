package arena

import (
	"strings"
	"testing"
)

func TestParseArm(t *testing.T) {
	for _, tc := range []struct {
		spec       string
		eval       string // a part of the evaluation's name
		width      int
		quiescence string // "", "on", "off"
		error      string
	}{
		{"hand", "hand:dnf86[", 0, "", ""},
		{"score", "score-only", 0, "", ""},
		{"hand-holes", "dnf86-holes", 0, "", ""},
		{"hand-enclosed-holes", "dnf86-enclosed_holes", 0, "", ""},
		{"weights:../../datasets/weights/dnf86.json", "hand:dnf86[", 0, "", ""},
		{"nnue:../../datasets/weights/gen-00.hlnn", "", 0, "", ""},
		{"hand@w300", "hand:dnf86[", 300, "", ""},
		{"hand@noq", "hand:dnf86[", 0, "off", ""},
		{"score@q@w50", "score-only", 50, "on", ""},
		{"hand-stack_height", "", 0, "", "already 0"},
		{"hand-legs", "", 0, "", "unknown term"},
		{"hand@w0", "", 0, "", "@w0"},
		{"hand@q@noq", "", 0, "", "twice"},
		{"hand@fast", "", 0, "", "unknown setting"},
		{"nnue:", "", 0, "", "unknown evaluation"},
		{"nnue:/no/such.hlnn", "", 0, "", "no such"},
		{"hand+g:1", "", 0, "", "WEIGHT:TABLE"},
		{"hand+g:NaN:x.json", "", 0, "", "weight"},
		{"random", "", 0, "", "unknown evaluation"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			a, err := ParseArm(tc.spec, nil)
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("ParseArm(%q) = %v, want a one-line error about %q", tc.spec, err, tc.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Spec != tc.spec || !strings.Contains(a.Eval.Name(), tc.eval) || a.BeamWidth != tc.width {
				t.Fatalf("ParseArm(%q) = %+v (eval %s)", tc.spec, a, a.Eval.Name())
			}
			w, q := a.Settings(1000, true)
			wantQ := tc.quiescence != "off"
			if w != map[bool]int{true: tc.width, false: 1000}[tc.width != 0] || q != wantQ {
				t.Fatalf("settings %d %v", w, q)
			}
		})
	}
}
