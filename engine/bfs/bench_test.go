package bfs

import (
	"context"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// BenchmarkSearch10x5 is the whole 10x5 search (real rule): 600,823
// states expanded per op.
func BenchmarkSearch10x5(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := Search(context.Background(), Options{Width: 10, Height: 5})
		if err != nil || res.PeakStates != 174585 {
			b.Fatal(err, res.PeakStates)
		}
		b.ReportMetric(float64(res.Expanded), "states/op")
	}
}

// BenchmarkCodec: encode then decode one 10x7 well (two-word key).
func BenchmarkCodec(b *testing.B) {
	c, _ := newCodec(10, 7, Bar)
	var w, back hatetris.Well
	for r := 0; r < 7; r++ {
		w[Bar+r] = uint16(0x155 + 37*r)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		w[Bar+6] = uint16(i & 1023)
		p, word := c.encode(&w)
		c.decode(p, word, &back)
	}
	if back != w {
		b.Fatal("round trip")
	}
}

// BenchmarkExpand: expanding one state of the 10x5 peak level (the AI's
// choice, the children, packing them into the partition buffers).
func BenchmarkExpand(b *testing.B) {
	dir := b.TempDir()
	res, err := Search(context.Background(), Options{Width: 10, Height: 5, LevelDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	c, _ := newCodec(10, 5, Bar)
	lr, err := openLevel(dir, res.PeakLevel, c.parts())
	if err != nil {
		b.Fatal(err)
	}
	var parts []uint32
	var words []uint64
	for {
		p, w, ok, err := lr.next()
		if err != nil || !ok {
			break
		}
		parts, words = append(parts, p), append(words, w)
	}
	lr.Close()
	rules, _ := NewRules(10, 5, RuleQntm)
	w := newWorker(0, rules, c.parts())
	sc := scorer{c: c, d: res.PeakLevel}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(words)
		w.expandPart(c, sc, parts[k], words[k:k+1], false)
		if i%4096 == 4095 {
			w.out.each(func(_ int, b *[]uint64) { *b = (*b)[:0] })
		}
	}
	b.ReportMetric(float64(w.children)/float64(b.N), "children/op")
}

// BenchmarkSearch10x6 is the speed target (run it alone, with
// -benchtime=1x): the whole 10x6 search, 21.2 M states expanded.
func BenchmarkSearch10x6(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res, err := Search(context.Background(), Options{Width: 10, Height: 6})
		if err != nil || res.PeakStates != 4844154 {
			b.Fatal(err, res.PeakStates)
		}
		b.ReportMetric(res.CPUSeconds, "cpu-s/op")
		b.ReportMetric(float64(res.PeakRSS)/(1<<20), "peak-MB")
	}
}
