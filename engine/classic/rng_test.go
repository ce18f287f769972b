package classic

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

func TestPCGVectors(t *testing.T) {
	g := NewPCG(0)
	if g.State != 10346034117385188870 || g.Table != [2]uint32{1024912844, 2092825924} {
		t.Fatalf("seed 0 init: %d %v", g.State, g.Table)
	}
	tick := PCG{State: 5 << 32, Table: [2]uint32{1024912844, 2092825924}}
	carry := PCG{State: 530242871224172544, Table: [2]uint32{2691576076, 3528568789}}
	tests := []struct {
		name string
		g    PCG
		want []uint32
	}{
		{"seed0", NewPCG(0), []uint32{3624513516, 2129754227, 476057461, 2962287239, 342004446}},
		{"seed7", NewPCG(7), []uint32{3731445301, 1043911707, 3602352211}},
		{"seed1", NewPCG(1), []uint32{2678409835, 1043646508, 491896260}},
		{"seed20000", NewPCG(20000), []uint32{1469783896, 965957086, 447790364}},
		{"tick", tick, []uint32{1037390120, 2058487762, 2473817755}},
		{"tick-carry", carry, []uint32{1865687484, 2260436023, 4100154515}},
	}
	for _, tc := range tests {
		g := tc.g
		for i, w := range tc.want {
			if got := g.Uint32(); got != w {
				t.Errorf("%s word %d = %d, want %d", tc.name, i, got, w)
			}
		}
	}
	g = tick
	g.Uint32()
	if g.Table != [2]uint32{1037387048, 3331277535} {
		t.Errorf("tick table after one word = %v", g.Table)
	}
}

func TestUnRXS(t *testing.T) {
	for _, s := range []uint32{0, 1, 7, 0xdeadbeef, 0xffffffff, 0x80000000, 123456789} {
		if got := unrxsmxs(rxsmxs(s)); got != s {
			t.Errorf("unrxsmxs(rxsmxs(%d)) = %d", s, got)
		}
	}
}

func TestPieceStream(t *testing.T) {
	f, err := os.Open("testdata/pcg_pieces.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var rec struct {
			Seed   int64  `json:"seed"`
			Pieces string `json:"first_pieces"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		p := NewPieces(rec.Seed)
		got := make([]byte, len(rec.Pieces))
		for i := range got {
			got[i] = p.Next().String()[0]
		}
		if string(got) != rec.Pieces {
			t.Errorf("seed %d: got %s\nwant %s", rec.Seed, got, rec.Pieces)
		}
		n++
	}
	if n != 20 {
		t.Fatalf("read %d records", n)
	}
}
