package hatetris

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// loadGeometries are the rules of the load tests: every width, every
// bar, and depths from the least (bar+1) to the most (MaxDepth-3), with
// stacks on both sides of load's 16-row word.
func loadGeometries(t *testing.T) []*Rules {
	t.Helper()
	var out []*Rules
	for width := MinWidth; width <= MaxWidth; width++ {
		for bar := 1; bar <= 4; bar++ {
			for _, depth := range []int{bar + 1, bar + 2, 7, 13, 16, 17, 20, 21, MaxDepth - 4, MaxDepth - 3} {
				if depth <= bar {
					continue
				}
				r, err := NewRules(width, depth, bar)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// loadWell is a test well of one of several kinds: empty; a contiguous
// random stack of height h (randomWell); the same with full rows in it;
// every row from the peak down full; a stack with an empty row inside
// (not contiguous); a single row floating over empty rows.
func loadWell(rng *rand.Rand, r *Rules, kind, h int) Well {
	var w Well
	switch kind {
	case 0:
	case 1:
		w = randomWell(rng, r, h)
	case 2:
		w = randomWell(rng, r, h)
		for y := r.Depth - h; y < r.Depth; y++ {
			if rng.IntN(3) == 0 {
				w[y] = r.full
			}
		}
	case 3:
		for y := r.Depth - h; y < r.Depth; y++ {
			w[y] = r.full
		}
	case 4:
		w = randomWell(rng, r, h)
		if h >= 2 {
			w[r.Depth-1-rng.IntN(h-1)] = 0
		}
	case 5:
		w[r.Depth-h] = uint16(rng.IntN(int(r.full))) + 1
	}
	return w
}

// checkLoad compares load's extended rows, peak, nearly-full masks and
// answer on w with a row-by-row reference (the loop load replaced).
func checkLoad(t *testing.T, g *Generator, r *Rules, w *Well, name string) {
	t.Helper()
	got := g.load(w)
	top := r.Peak(w)
	var nf [5]uint64
	contiguous := true
	for y := top; y < r.Depth; y++ {
		contiguous = contiguous && w[y] != 0
		k := nearlyFull[(r.Width-bits.OnesCount16(w[y]))&31]
		for K := 1; K <= 4; K++ {
			nf[K] |= uint64(k>>(K-1)&1) << uint(y)
		}
	}
	if r.Width <= 4 {
		nf[4] |= 1<<uint(top) - 1
	}
	for y := 0; y < r.Depth+4; y++ {
		want := r.full
		if y < r.Depth {
			want = w[y]
		}
		if g.ext[y] != want {
			t.Fatalf("%s: ext[%d] = %#x, want %#x\n%s", name, y, g.ext[y], want, r.Format(w))
		}
	}
	if g.top != top {
		t.Fatalf("%s: top %d, want %d\n%s", name, g.top, top, r.Format(w))
	}
	for K := 1; K <= 4; K++ {
		if g.nfBy[K] != nf[K] {
			t.Fatalf("%s: nearly-full mask %d = %#x, want %#x\n%s", name, K, g.nfBy[K], nf[K], r.Format(w))
		}
	}
	want := contiguous && (top >= 4 || g.spawnsFit())
	if got != want {
		t.Fatalf("%s: load says real %v, want %v\n%s", name, got, want, r.Format(w))
	}
}

// TestLoadMatchesReference: load's one-copy rows, four-row peak search
// and branchless contiguity give the row-by-row reference's extended
// rows (the floor's four full rows included), peak, masks and answer on
// every geometry of loadGeometries, for empty wells, stacks of every
// height up to the top row (full to the bar and past it), full rows,
// stacks with an empty row inside and floating rows, seeded; one
// generator per geometry serves wells of every height in turn, so rows
// left from a taller well would show.
func TestLoadMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 0
	for _, r := range loadGeometries(t) {
		g := NewGenerator(r)
		for kind := 0; kind <= 5; kind++ {
			for h := 1; h <= r.Depth; h++ {
				if kind == 0 && h > 1 {
					break
				}
				w := loadWell(rng, r, kind, h)
				checkLoad(t, g, r, &w, fmt.Sprintf("%v kind %d height %d", r, kind, h))
				n++
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d wells loaded", n)
	}
}

// TestOutcomesEveryGeometry: on the geometries load's copy touches at
// its edges (the deepest well, MaxDepth-3, whose floor ends at row
// MaxDepth; bars 1 to 4; the narrowest and widest wells), the
// generator's outcomes of every piece match the game's breadth-first
// search (matchNaive) for empty wells, stacks up to the bar, full rows,
// stacks with an empty row inside and floating rows, seeded.
func TestOutcomesEveryGeometry(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	n := 0
	for _, width := range []int{MinWidth, 5, 10, MaxWidth} {
		for bar := 1; bar <= 4; bar++ {
			for _, depth := range []int{bar + 4, 17, MaxDepth - 3} {
				r, err := NewRules(width, depth, bar)
				if err != nil {
					t.Fatal(err)
				}
				g := NewGenerator(r)
				for kind := 0; kind <= 5; kind++ {
					for _, h := range []int{1, 2, depth / 2, depth - bar - 1, depth - bar} {
						if h < 1 || kind == 0 && h > 1 {
							continue
						}
						w := loadWell(rng, r, kind, h)
						for p := Piece(0); p < NumPieces; p++ {
							matchNaive(t, g, r, &w, p)
							n++
						}
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d (well, piece) pairs checked", n)
	}
}
