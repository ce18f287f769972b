package nnue

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// benchChildren returns parents of the record games (every 4th spawn
// well) and, flattened, the rows of the children of the AI's piece (Mild
// choice) of each, with the parent index of each child.
func benchChildren(b *testing.B) (parents [][]uint16, kids [][]uint16, of []int) {
	r := hatetris.Standard()
	wells := recordWells(b)
	g := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for i := 0; i < len(wells); i += 4 {
		_, buf = g.Move(&wells[i], hatetris.Mild, nil, buf[:0])
		n := 0
		for k := range buf {
			if !buf[k].GameOver {
				w := buf[k].Well
				kids = append(kids, w[r.Bar:r.Depth])
				of = append(of, len(parents))
				n++
			}
		}
		if n > 0 {
			w := wells[i]
			parents = append(parents, w[r.Bar:r.Depth])
		}
	}
	return parents, kids, of
}

// BenchmarkFeatures: the active features of one well (table-driven).
func BenchmarkFeatures(b *testing.B) {
	_, kids, _ := benchChildren(b)
	fs, _ := NewFeatureSet(Shared, 10, 16)
	buf := make([]int32, 0, fs.Active())
	b.ReportAllocs()
	cpu := startCPU(b)
	for i := 0; b.Loop(); i++ {
		buf = fs.Append(buf[:0], kids[i%len(kids)])
	}
	cpu.report(b)
}

// cpuTimer reports the thread CPU time per op ("cpu-ns/op"), which other
// load on the machine disturbs less than wall time.
type cpuTimer struct{ t0 time.Duration }

func startCPU(b *testing.B) cpuTimer {
	runtime.LockOSThread()
	b.ResetTimer()
	return cpuTimer{threadCPU()}
}

func (c cpuTimer) report(b *testing.B) {
	d := threadCPU() - c.t0
	runtime.UnlockOSThread()
	if d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkEvaluate: one child evaluation (accumulator and output) of the
// record games' children, by full refresh or updated from the parent's
// accumulator (refreshed once per parent, not timed per child: the
// parents' refreshes are amortised as in a beam, about 1 per 25 children).
func BenchmarkEvaluate(b *testing.B) {
	parents, kids, of := benchChildren(b)
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		for _, h := range []int{32, 64} {
			q, err := Quantize(randomNetwork(b, fs, h, HardTanh, 0.1, 1), 0, 0)
			if err != nil {
				b.Fatal(err)
			}
			for _, mode := range []string{"full", "incr"} {
				b.Run(fmt.Sprintf("%s/%s/H%d", v, mode, h), func(b *testing.B) {
					p, c := q.NewAccumulator(), q.NewAccumulator()
					last := -1
					var sink int64
					b.ReportAllocs()
					cpu := startCPU(b)
					for i := 0; b.Loop(); i++ {
						k := i % len(kids)
						if mode == "full" {
							q.Refresh(c, kids[k])
						} else {
							if of[k] != last {
								last = of[k]
								q.Refresh(p, parents[last])
							}
							sink += q.ChildOutput(c, p, kids[k])
							continue
						}
						sink += q.Output(c)
					}
					cpu.report(b)
					_ = sink
					b.ReportMetric(float64(len(kids))/float64(len(parents)), "children/parent")
				})
			}
		}
	}
}

// BenchmarkChainEvaluate: the evaluation of quiescence-chain wells (a
// child of a record-game well, then one line cleared by the next piece)
// from the record well's accumulator, as a beam evaluates them:
// ChildOutput ("child"; for shared features a line clear is an update)
// against a full refresh ("full").
func BenchmarkChainEvaluate(b *testing.B) {
	r := hatetris.Standard()
	wells := recordWells(b)
	g := hatetris.NewGenerator(r)
	var parents, kids [][]uint16
	var of []int
	for i := 0; i < len(wells); i += 4 {
		n := 0
		for _, c := range children(g, &wells[i], nil) {
			for _, gc := range children(g, &c.Well, nil) {
				if gc.Lines == 1 {
					w := gc.Well
					kids = append(kids, w[r.Bar:r.Depth])
					of = append(of, len(parents))
					n++
				}
			}
		}
		if n > 0 {
			w := wells[i]
			parents = append(parents, w[r.Bar:r.Depth])
		}
	}
	if len(kids) == 0 {
		b.Skip("no chain wells")
	}
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 10, 16)
		q, err := Quantize(randomNetwork(b, fs, 32, HardTanh, 0.1, 1), 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"full", "child"} {
			b.Run(fmt.Sprintf("%s/%s/H32", v, mode), func(b *testing.B) {
				p, c := q.NewAccumulator(), q.NewAccumulator()
				last := -1
				var sink int64
				b.ReportAllocs()
				cpu := startCPU(b)
				for i := 0; b.Loop(); i++ {
					k := i % len(kids)
					if mode == "full" {
						q.Refresh(c, kids[k])
						sink += q.Output(c)
						continue
					}
					if of[k] != last {
						last = of[k]
						q.Refresh(p, parents[last])
					}
					sink += q.ChildOutput(c, p, kids[k])
				}
				cpu.report(b)
				_ = sink
				b.ReportMetric(float64(len(kids))/float64(len(parents)), "children/parent")
			})
		}
	}
}
