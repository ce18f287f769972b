package classic

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSweepWorkersAgree(t *testing.T) {
	jobs := Jobs([]int{5, 6}, 10, 30)
	if len(jobs) != 60 || jobs[0].Rows != 6 {
		t.Fatalf("jobs %v", jobs[:2])
	}
	collect := func(workers int) []Result {
		var out []Result
		err := Sweep(context.Background(), jobs, func() Agent { return TetrAI{} }, workers,
			func(r Result) error { out = append(out, r); return nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(out, func(a, b Result) int { return int(a.Seed - b.Seed) })
		return out
	}
	one, four := collect(1), collect(4)
	if !slices.Equal(one, four) {
		t.Fatal("results differ between 1 and 4 workers")
	}
	ref := map[[2]int64][2]int64{}
	for _, g := range readRef(t) {
		ref[[2]int64{int64(g.Rows), g.Seed}] = [2]int64{g.Pieces, g.Lines}
	}
	for _, r := range one {
		if want := ref[[2]int64{int64(r.Rows), r.Seed}]; want != [2]int64{r.Pieces, r.Lines} {
			t.Errorf("rows %d seed %d: %d %d, want %v", r.Rows, r.Seed, r.Pieces, r.Lines, want)
		}
	}
}

func TestCSVResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	w, err := OpenCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := []Result{
		{Agent: "tetr-ai", Rows: 5, Cols: 10, Seed: 5000, Pieces: 299, Lines: 116},
		{Agent: "tetr-ai", Rows: 5, Cols: 10, Seed: 5001, Pieces: 12, Lines: 1},
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	// A kill in the middle of a write leaves a partial line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("tetr-ai,5,10,50")
	f.Close()
	w, err = OpenCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Done, recs) {
		t.Fatalf("resumed %v", w.Done)
	}
	jobs := Remaining(Jobs([]int{5}, 10, 3), "tetr-ai", w.Done)
	if len(jobs) != 1 || jobs[0].Seed != 5002 {
		t.Fatalf("remaining %v", jobs)
	}
	w.Write(Result{Agent: "tetr-ai", Rows: 5, Cols: 10, Seed: 5002, Pieces: 33, Lines: 9})
	w.Close()
	data, _ := os.ReadFile(path)
	want := CSVHeader + "\ntetr-ai,5,10,5000,299,116\ntetr-ai,5,10,5001,12,1\ntetr-ai,5,10,5002,33,9\n"
	if string(data) != want {
		t.Fatalf("file:\n%s", data)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, in := range []string{
		"tetr-ai,5,10,1,2\n",
		"tetr-ai,5,10,1,2,x\n",
		"tetr-ai,3,10,1,2,3\n",
		",5,10,1,2,3\n",
		"tetr-ai,5,10,1,-2,3\n",
	} {
		if _, err := ReadCSV(strings.NewReader(in)); err == nil {
			t.Errorf("ReadCSV(%q) succeeded", in)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte(CSVHeader + "\ntetr-ai,5,10,5000,299,116\n"))
	f.Add([]byte("bcts,12,10,12000,1,0\npartial"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadCSV(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			buf.WriteString(CSVLine(r))
		}
		again, err := ReadCSV(&buf)
		if err != nil || !slices.Equal(recs, again) {
			t.Fatalf("round trip: %v %v", err, again)
		}
	})
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		xs             []float64
		mean, median   float64
		sd             float64
		expShapeNeeded bool
	}{
		{[]float64{1, 2, 3, 4}, 2.5, 2.5, math.Sqrt(5.0 / 3), false},
		{[]float64{5}, 5, 5, 0, false},
		{[]float64{3, 1, 2}, 2, 2, 1, false},
	}
	for _, tc := range tests {
		s := Describe(tc.xs)
		if s.Mean != tc.mean || s.Median != tc.median || math.Abs(s.SD-tc.sd) > 1e-12 {
			t.Errorf("Describe(%v) = %+v", tc.xs, s)
		}
	}
	// An exponential sample (quantiles of mean 1000) passes the shape check.
	n := 1000
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Round(-1000 * math.Log(1-(float64(i)+0.5)/float64(n)))
	}
	if s := Describe(xs); !s.Exponential || math.Abs(s.CV-1) > 0.1 {
		t.Errorf("exponential sample: %+v", s)
	}
	// A constant sample does not.
	for i := range xs {
		xs[i] = 1000
	}
	if s := Describe(xs); s.Exponential {
		t.Errorf("constant sample passed: %+v", s)
	}
}
