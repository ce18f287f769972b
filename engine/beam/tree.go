package beam

import "github.com/hatelab/hatelab/engine/hatetris"

// level is one level of the ancestry: for each surviving node, its parent
// (an index into the level above), the index of its outcome among the
// parent's outcomes, the hash of its well and its cell count. 15 bytes a
// node; levels are compacted to the nodes that still have a descendant in
// the beam, so old levels shrink to a handful of nodes.
type level struct {
	Parent []uint32
	Move   []uint8
	Hash   []uint64
	Cells  []uint16
}

func (l *level) len() int { return len(l.Parent) }

func (l *level) push(parent uint32, move uint8, hash uint64, cells int) {
	l.Parent = append(l.Parent, parent)
	l.Move = append(l.Move, move)
	l.Hash = append(l.Hash, hash)
	l.Cells = append(l.Cells, uint16(cells))
}

// tree is the beam's ancestry, level 0 being the start well.
type tree struct {
	Levels []level
	remap  []int32
	used   []bool
	// prefix holds the wells the AI saw before the root (the start's
	// history), which every path shares.
	prefix prefix
}

// prefix is the start's history as the wells' hashes and cell counts.
type prefix struct {
	hashes []uint64
	cells  []int32
}

func newPrefix(history []hatetris.Well) prefix {
	var p prefix
	for i := range history {
		p.hashes = append(p.hashes, hashWell(&history[i]))
		p.cells = append(p.cells, int32(cellsOf(&history[i])))
	}
	return p
}

// nodes counts the stored nodes.
func (t *tree) nodes() int {
	n := 0
	for i := range t.Levels {
		n += t.Levels[i].len()
	}
	return n
}

// gather walks from node i of level d to the root, appending the hashes of
// the wells h wants.
func (t *tree) gather(d, i int, h *pathHist) {
	for ; d >= 0; d-- {
		l := &t.Levels[d]
		h.add(int(l.Cells[i]), l.Hash[i])
		i = int(l.Parent[i])
	}
	for k, c := range t.prefix.cells {
		h.add(int(c), t.prefix.hashes[k])
	}
}

// path returns the move indices from the root to node i of level d.
func (t *tree) path(d, i int) []uint8 {
	p := make([]uint8, d)
	for ; d > 0; d-- {
		l := &t.Levels[d]
		p[d-1] = l.Move[i]
		i = int(l.Parent[i])
	}
	return p
}

// compact drops the nodes of levels above the last that no longer have a
// descendant in the last level, from the bottom up, stopping at the first
// level that keeps all its nodes.
func (t *tree) compact() {
	for d := len(t.Levels) - 1; d >= 1; d-- {
		child, par := &t.Levels[d], &t.Levels[d-1]
		n := par.len()
		if cap(t.used) < n {
			t.used = make([]bool, n)
			t.remap = make([]int32, n)
		}
		used, remap := t.used[:n], t.remap[:n]
		clear(used)
		for _, p := range child.Parent {
			used[p] = true
		}
		k := 0
		for i := 0; i < n; i++ {
			if used[i] {
				remap[i] = int32(k)
				par.Parent[k], par.Move[k], par.Hash[k], par.Cells[k] = par.Parent[i], par.Move[i], par.Hash[i], par.Cells[i]
				k++
			}
		}
		if k == n {
			return
		}
		for j, p := range child.Parent {
			child.Parent[j] = uint32(remap[p])
		}
		par.Parent, par.Move, par.Hash, par.Cells = shrink(par.Parent[:k]), shrink(par.Move[:k]), shrink(par.Hash[:k]), shrink(par.Cells[:k])
	}
}

// shrink reallocates s when it uses less than half its capacity.
func shrink[T any](s []T) []T {
	if cap(s) > 64 && len(s) < cap(s)/2 {
		return append([]T(nil), s...)
	}
	return s
}
