package hatetris

import "testing"

// TestMaxClears checks MaxClears against the reference enumeration on every
// 10x20 well of the random-game vectors.
func TestMaxClears(t *testing.T) {
	r := Standard()
	g := NewGenerator(r)
	ws := sampleWells(t)
	if testing.Short() {
		ws = ws[:1000]
	}
	var got [NumPieces]int
	for i := range ws {
		g.MaxClears(&ws[i], &got)
		for p := Piece(0); p < NumPieces; p++ {
			want := 0
			for _, res := range r.NaiveOutcomes(&ws[i], p) {
				if !res.GameOver {
					want = max(want, res.Lines)
				}
			}
			if got[p] != want {
				t.Fatalf("well %d piece %v: MaxClears %d, naive %d\n%s", i, p, got[p], want, r.Format(&ws[i]))
			}
			if one := g.MaxClear(&ws[i], p); one != want {
				t.Fatalf("well %d piece %v: MaxClear %d, naive %d", i, p, one, want)
			}
		}
	}
}

func BenchmarkMaxClears(b *testing.B) {
	ws := sampleWells(b)
	g := NewGenerator(Standard())
	var out [NumPieces]int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g.MaxClears(&ws[i%len(ws)], &out)
	}
}
