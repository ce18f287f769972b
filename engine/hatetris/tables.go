package hatetris

import "math/bits"

// pieceTables holds one piece's waveform layout for one well width.
//
// A "slot" is a (box column x, orientation o) pair that keeps the piece
// inside the well's side walls. Slots are numbered orientation by
// orientation (block o holds x = xmin[o] .. xmin[o]+n[o]-1 in order), so a
// set of slots at one box row is a uint64: moving left or right is a shift
// by one bit (masked at block edges) and rotating is a per-block shift.
// At most 4*(16-1) = 60 slots exist, so every width up to 16 fits.
type pieceTables struct {
	nSlots   int
	valid    uint64 // all slots
	slotX    [64]int8
	slotO    [64]int8
	rows     [64][4]uint16 // the piece's cells at each slot, by box row
	notLast  uint64        // slots that may move right (not last of block)
	notFirst uint64        // slots that may move left (not first of block)
	rotSrc   [4]uint64     // slots of block o whose x is valid in o+1
	rotSh    [4]int        // bit shift taking block o to block o+1 (signed)
	block    [4]uint64     // slots of orientation o
	minRow   [4]int        // top box row of orientation o

	// collideLo[r][v]: slots whose box row r meets a well row whose low 10
	// bits are v; collideHi[r][v]: the same for bits 10..15 (used only when
	// the well is wider than 10).
	collideLo [4][1024]uint64
	collideHi [4][64]uint64
	wide      bool
	// eq[r][c][v]: slots whose box row r, chunk c, equals v exactly.
	eq [4][2][256]uint64

	rowUsed  [4]uint64 // slots with cells in box row r
	overTop  [4]uint64 // overTop[k]: slots whose top cell is in box row < k
	spawnBit uint64

	rowCells int // the most cells the piece has in one row
	groups   int
	groupMsk [4]uint64
	groupTop [4]int

	dups  [12]dupRule
	nDups int

	// drops lists the distinct orientations (translates left out) as
	// columns for the straight-drop test: see Generator.dropReaches.
	drops  [4]dropShape
	nDrops int
}

// dropShape is one orientation seen column by column, d = 0..n-1 from its
// leftmost column: with the piece's top row at well row v, its lowest
// cell in column d is at row v+k[d]-1.
type dropShape struct {
	n int
	k [4]int
}

// dupRule says: a slot of orientation b at box row y has exactly the cells
// of a slot of orientation a (< b) at box row y+dy; the b slot's bit is the
// a slot's bit shifted by sh.
type dupRule struct {
	a, b, dy, sh int
}

func shift(v uint64, s int) uint64 {
	if s >= 0 {
		return v << uint(s)
	}
	return v >> uint(-s)
}

func (t *pieceTables) build(r *Rules, p Piece) {
	W := r.Width
	t.wide = W > 10
	var xmin, n, off [4]int
	for o := 0; o < 4; o++ {
		minC, maxC, minR, _ := boxExtent(p, o)
		xmin[o] = -minC
		n[o] = W - (maxC - minC)
		t.minRow[o] = minR
		if o > 0 {
			off[o] = off[o-1] + n[o-1]
		}
	}
	t.nSlots = off[3] + n[3]
	for o := 0; o < 4; o++ {
		for i := 0; i < n[o]; i++ {
			s := off[o] + i
			x := xmin[o] + i
			bit := uint64(1) << s
			t.valid |= bit
			t.block[o] |= bit
			t.slotX[s], t.slotO[s] = int8(x), int8(o)
			for _, c := range boxCells[p][o] {
				t.rows[s][c[1]] |= r.Bit(x + int(c[0]))
			}
			if i > 0 {
				t.notFirst |= bit
			}
			if i < n[o]-1 {
				t.notLast |= bit
			}
			if r.spawnX == x && o == 0 {
				t.spawnBit = bit
			}
			// Rotation to o+1 keeps x.
			o2 := (o + 1) & 3
			if j := x - xmin[o2]; j >= 0 && j < n[o2] {
				t.rotSrc[o] |= bit
			}
		}
		o2 := (o + 1) & 3
		t.rotSh[o] = (off[o2] - xmin[o2]) - (off[o] - xmin[o])
	}
	for _, o := range [2]int{0, 1} {
		var n [4]int
		for _, c := range boxCells[p][o] {
			n[c[1]]++
		}
		t.rowCells = max(t.rowCells, n[0], n[1], n[2], n[3])
	}
	for s := 0; s < t.nSlots; s++ {
		bit := uint64(1) << s
		for br := 0; br < 4; br++ {
			pr := t.rows[s][br]
			if pr != 0 {
				t.rowUsed[br] |= bit
			}
			for v := 0; v < 1024; v++ {
				if pr&uint16(v) != 0 {
					t.collideLo[br][v] |= bit
				}
			}
			for v := 0; v < 64; v++ {
				if pr&uint16(v<<10) != 0 {
					t.collideHi[br][v] |= bit
				}
			}
			for c := 0; c < 2; c++ {
				t.eq[br][c][(pr>>(8*c))&0xff] |= bit
			}
		}
		for k := 0; k <= 3; k++ {
			if t.minRow[t.slotO[s]] < k {
				t.overTop[k] |= bit
			}
		}
	}
	// Orientation groups sharing a top row.
	for o := 0; o < 4; o++ {
		g := 0
		for g < t.groups && t.groupTop[g] != t.minRow[o] {
			g++
		}
		if g == t.groups {
			t.groups++
			t.groupTop[g] = t.minRow[o]
		}
		t.groupMsk[g] |= t.block[o]
	}
	// Deepest-topped group first, so the no-clear value is the first hit.
	for i := 1; i < t.groups; i++ {
		for j := i; j > 0 && t.groupTop[j] > t.groupTop[j-1]; j-- {
			t.groupTop[j], t.groupTop[j-1] = t.groupTop[j-1], t.groupTop[j]
			t.groupMsk[j], t.groupMsk[j-1] = t.groupMsk[j-1], t.groupMsk[j]
		}
	}
	// Straight-drop shapes of the orientations that are not translates of
	// a lower one.
	for o := 0; o < 4; o++ {
		if _, _, ok := translateOfLower(p, o); ok {
			continue
		}
		minC, maxC, minR, _ := boxExtent(p, o)
		var low [4]int
		for i := range low {
			low[i] = -1
		}
		for _, c := range boxCells[p][o] {
			low[int(c[0])-minC] = max(low[int(c[0])-minC], int(c[1]))
		}
		d := &t.drops[t.nDrops]
		d.n = maxC - minC + 1
		for i := 0; i < d.n; i++ {
			d.k[i] = 1 + low[i] - minR
		}
		t.nDrops++
	}
	// Orientations whose cells are translates of a lower orientation's.
	// Only the lowest equivalent orientation is kept as the reference:
	// equivalent orientations (O's four) are reachable together.
	for b := 1; b < 4; b++ {
		for a := 0; a < b; a++ {
			sx, sy, ok := translate(p, a, b)
			if !ok {
				continue
			}
			// b at (x, y) == a at (x+sx, y+sy).
			// bit_b = off[b] + x - xmin[b]; bit_a = off[a] + x + sx - xmin[a].
			sh := (off[b] - xmin[b]) - (off[a] + sx - xmin[a])
			t.dups[t.nDups] = dupRule{a: a, b: b, dy: sy, sh: sh}
			t.nDups++
			break
		}
	}
	// dedupLevels edits b slots in place: no rule may read them.
	for i := 0; i < t.nDups; i++ {
		for j := 0; j < t.nDups; j++ {
			if t.dups[i].a == t.dups[j].b {
				panic("hatetris: a duplicate rule reads another rule's orientation")
			}
		}
	}
}

// translateOfLower reports whether orientation b's cells are a translate
// of a lower orientation's.
func translateOfLower(p Piece, b int) (sx, sy int, ok bool) {
	for a := 0; a < b; a++ {
		if sx, sy, ok = translate(p, a, b); ok {
			return
		}
	}
	return 0, 0, false
}

// translate reports whether orientation b's cells are orientation a's
// shifted by (sx, sy) in box coordinates.
func translate(p Piece, a, b int) (sx, sy int, ok bool) {
	ca, cb := boxCells[p][a], boxCells[p][b]
	minA, minB := [2]int{9, 9}, [2]int{9, 9}
	for i := 0; i < 4; i++ {
		for k := 0; k < 2; k++ {
			minA[k] = min(minA[k], int(ca[i][k]))
			minB[k] = min(minB[k], int(cb[i][k]))
		}
	}
	sx, sy = minB[0]-minA[0], minB[1]-minA[1]
	for _, c := range cb {
		found := false
		for _, d := range ca {
			if int(d[0])+sx == int(c[0]) && int(d[1])+sy == int(c[1]) {
				found = true
				break
			}
		}
		if !found {
			return 0, 0, false
		}
	}
	return sx, sy, true
}

// moves returns the slots reachable from v by one L, R or U press, plus v.
func (t *pieceTables) spread(v uint64) uint64 {
	u := v | (v&t.notLast)<<1 | (v&t.notFirst)>>1
	// A rotation moves every slot of rotSrc[o] to a slot (no bit leaves
	// the word), so a rotate is the shift, without a branch on its sign.
	u |= bits.RotateLeft64(v&t.rotSrc[0], t.rotSh[0]) | bits.RotateLeft64(v&t.rotSrc[1], t.rotSh[1]) |
		bits.RotateLeft64(v&t.rotSrc[2], t.rotSh[2]) | bits.RotateLeft64(v&t.rotSrc[3], t.rotSh[3])
	return u
}

// flood closes v under L, R and U inside free.
func (t *pieceTables) flood(v, free uint64) uint64 {
	if v == free {
		// Nothing left to reach (the common case above the stack).
		return v
	}
	for {
		u := t.spread(v) & free
		if u == v {
			return v
		}
		v = u
	}
}

// extRows holds a well's rows followed by full rows (the floor), indexed
// modulo its length so that lookups need no bounds checks.
type extRows [64]uint16

// free returns the slots that do not collide when the box's top row is at
// well row y, given the extended rows ext (rows past the depth are full).
func (t *pieceTables) free(ext *extRows, y int) uint64 {
	if t.wide {
		return t.freeWide(ext, y)
	}
	return t.freeNarrow(ext, y)
}

// freeNarrow is free for wells up to 10 wide: one lookup per box row.
func (t *pieceTables) freeNarrow(ext *extRows, y int) uint64 {
	return t.valid &^ (t.collideLo[0][ext[y&63]&1023] | t.collideLo[1][ext[(y+1)&63]&1023] |
		t.collideLo[2][ext[(y+2)&63]&1023] | t.collideLo[3][ext[(y+3)&63]&1023])
}

// freeWide is free for wells 11 to 16 wide.
func (t *pieceTables) freeWide(ext *extRows, y int) uint64 {
	a, b, c, d := ext[y&63], ext[(y+1)&63], ext[(y+2)&63], ext[(y+3)&63]
	hit := t.collideLo[0][a&1023] | t.collideLo[1][b&1023] | t.collideLo[2][c&1023] | t.collideLo[3][d&1023] |
		t.collideHi[0][a>>10] | t.collideHi[1][b>>10] | t.collideHi[2][c>>10] | t.collideHi[3][d>>10]
	return t.valid &^ hit
}

// fills returns the slots whose box row br completes a row holding
// the value v (complement comp).
func (t *pieceTables) fills(br int, comp uint16) uint64 {
	return t.eq[br][0][comp&0xff] & t.eq[br][1][comp>>8] & t.rowUsed[br]
}
