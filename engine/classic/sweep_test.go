package classic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
	const h = CSVHeader + "\n"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty (no header"},
		{"no header", "tetr-ai,5,10,1,2,3\n", "line 1: not the header"},
		{"foreign header", "a,b\nc\n", "line 1: not the header"},
		{"one line, no newline", "hello", "line 1: not the header " + CSVHeader + " followed by a newline"},
		{"header without newline", CSVHeader, "followed by a newline"},
		{"five fields", h + "tetr-ai,5,10,1,2\n", "line 2: want 6 fields"},
		{"not a number", h + "tetr-ai,5,10,1,2,x\n", "line 2: field 6"},
		{"rows out of range", h + "tetr-ai,3,10,1,2,3\n", "value out of range"},
		{"no agent", h + ",5,10,1,2,3\n", "agent \"\""},
		{"agent with a space", h + "tetr ai,5,10,1,2,3\n", "agent"},
		{"negative pieces", h + "tetr-ai,5,10,1,-2,3\n", "value out of range"},
		{"blank line", h + "\n", "line 2: want 6 fields"},
		{"CRLF", CSVHeader + "\r\n", "line 1: not the header"},
		{"duplicate game", h + "a,5,10,1,2,3\nb,5,10,1,2,3\na,5,10,1,7,8\n", "line 4: game a,5,10,1 is already on line 2"},
		{"long line", h + strings.Repeat("a", MaxCSVLine) + ",5,10,1,2,3\n", "line 2: longer than 200 bytes"},
		{"huge line", strings.Repeat("\x00", 1<<20), "line 1: longer than 200 bytes"},
		{"foreign partial last line", h + "a,5,10,1,2,3\nnot ours!", "line 3: incomplete last line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := ReadCSV(strings.NewReader(tc.in))
			var ce *CSVError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadCSV = %v, %v; want a *CSVError containing %q", recs, err, tc.want)
			}
			if len(err.Error()) > 300 || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one short line: %q", err)
			}
		})
	}
}

// TestReadCSVSize checks that ReadCSV stops at the size cap without reading
// on: an endless input of distinct records is refused (the cap lowered to 1
// MiB for the test).
func TestReadCSVSize(t *testing.T) {
	defer func(n int64) { maxCSVBytes = n }(maxCSVBytes)
	maxCSVBytes = 1 << 20
	seed, read := 0, int64(0)
	body := readerFunc(func(p []byte) (int, error) {
		line := fmt.Sprintf("tetr-ai,5,10,%d,299,116\n", seed)
		seed++
		read += int64(len(line))
		if read > 2*maxCSVBytes {
			t.Fatal("read on past the cap")
		}
		return copy(p, line), nil
	})
	_, err := ReadCSV(io.MultiReader(strings.NewReader(CSVHeader+"\n"), body))
	var ce *CSVError
	if !errors.As(err, &ce) || err.Error() != "larger than 1 MiB" {
		t.Fatalf("err %v", err)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestOpenCSVRefuses checks that OpenCSV refuses every file that is not a
// sweep CSV and leaves it byte for byte as it was.
func TestOpenCSVRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, content := range []string{
		"hello",
		"hello\n",
		"a,b\nc\n",
		CSVHeader,
		CSVHeader[:10],
		CSVHeader + "\nnot a record\n",
		CSVHeader + "\ntetr-ai,5,10,5000,299,116\ntetr-ai,5,10,5000,299,116\n",
		CSVHeader + "\ntetr-ai,5,10,5000,299,116\nmy notes: keep",
	} {
		path := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := OpenCSV(path)
		var ce *CSVError
		if !errors.As(err, &ce) {
			w.Close()
			t.Errorf("OpenCSV(%q) = %v", content, err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("OpenCSV(%q) changed the file to %q", content, got)
		}
	}
	for _, dev := range []string{"/dev/zero", "/dev/full"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		if _, err := OpenCSV(dev); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("OpenCSV(%s) = %v", dev, err)
		}
	}
	// An empty file is taken as new.
	path := filepath.Join(dir, "empty.csv")
	os.WriteFile(path, nil, 0o644)
	w, err := OpenCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got, _ := os.ReadFile(path); string(got) != CSVHeader+"\n" {
		t.Fatalf("empty file became %q", got)
	}
}

// TestCSVWriterRefuses checks that a record ReadCSV could not read back is
// not written.
func TestCSVWriterRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	w, err := OpenCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Result{
		{Agent: "my agent", Rows: 5, Cols: 10},
		{Agent: "a,b", Rows: 5, Cols: 10},
		{Agent: "", Rows: 5, Cols: 10},
		{Agent: "x", Rows: 3, Cols: 10},
		{Agent: "x", Rows: 5, Cols: 10, Lines: -1},
	} {
		if err := w.Write(r); err == nil {
			t.Errorf("wrote %+v", r)
		}
	}
	if err := w.Write(Result{Agent: "greedy-2.v_1", Rows: 5, Cols: 10, Seed: 7, Pieces: 3, Lines: 1}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got, _ := os.ReadFile(path); string(got) != CSVHeader+"\ngreedy-2.v_1,5,10,7,3,1\n" {
		t.Fatalf("file %q", got)
	}
}

func TestJobsDedupe(t *testing.T) {
	jobs := Jobs([]int{5, 6, 5, 6}, 10, 2)
	want := []Job{{6, 10, 6000}, {6, 10, 6001}, {5, 10, 5000}, {5, 10, 5001}}
	if !slices.Equal(jobs, want) {
		t.Fatalf("Jobs = %v, want %v", jobs, want)
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte(CSVHeader + "\ntetr-ai,5,10,5000,299,116\n"))
	f.Add([]byte(CSVHeader + "\nbcts,12,10,12000,1,0\npartial"))
	f.Add([]byte("bcts,12,10,12000,1,0\npartial"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadCSV(bytes.NewReader(data))
		if err != nil {
			if len(err.Error()) > 400 || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one short line: %q", err)
			}
			return
		}
		var buf bytes.Buffer
		buf.WriteString(CSVHeader + "\n")
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

// FuzzOpenCSV checks OpenCSV on any existing file: it either refuses it and
// leaves it byte for byte, or keeps a prefix of it (only a partial last
// line cut, or the header added to an empty file) whose records are Done.
func FuzzOpenCSV(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("hello"))
	f.Add([]byte(CSVHeader + "\ntetr-ai,5,10,5000,299,116\ntetr-ai,5,10,50"))
	f.Add([]byte(CSVHeader + "\ntetr-ai,5,10,5000,299,116\ntetr-ai,5,10,5000,299,116\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := OpenCSV(path)
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			var ce *CSVError
			if !errors.As(err, &ce) || !bytes.Equal(got, data) {
				t.Fatalf("refused with %v, file now %q", err, got)
			}
			return
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			if string(got) != CSVHeader+"\n" {
				t.Fatalf("empty file became %q", got)
			}
			return
		}
		if !bytes.HasPrefix(data, got) || bytes.Contains(data[len(got):], []byte("\n")) {
			t.Fatalf("kept %q of %q", got, data)
		}
		recs, err := ReadCSV(bytes.NewReader(got))
		if err != nil || !slices.Equal(recs, w.Done) {
			t.Fatalf("kept file reads %v, %v; Done %v", recs, err, w.Done)
		}
	})
}
