package samples

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

func someWells() []hatetris.Well {
	r := hatetris.Standard()
	ws := make([]hatetris.Well, 5)
	for i := range ws {
		ws[i][r.Depth-1] = uint16(0x3ff &^ (1 << i))
		ws[i][r.Depth-2] = uint16(i * 37 & 0x3ff)
		ws[i][r.Bar] = uint16(i)
	}
	return ws
}

// TestSamplesRoundTrip: a samples file reads back as written, header and
// wells.
func TestSamplesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "samples.bin")
	// Rules nil are the real game's (the third round).
	for i, ws := range [][]hatetris.Well{nil, someWells(), someWells()} {
		r := hatetris.Standard()
		if i == 2 {
			r = nil
		}
		in := &File{Provenance: "test", Score: 3, Pieces: 9, Plain: 2, Seconds: 1.5, Sampled: 7, Wells: ws}
		if err := Write(path, r, in); err != nil {
			t.Fatal(err)
		}
		if in.Rows != 16 {
			t.Fatalf("rows %d written, want 16", in.Rows)
		}
		out, err := Read(path, r)
		if err != nil {
			t.Fatal(err)
		}
		if out.Provenance != "test" || out.Score != 3 || out.Pieces != 9 || out.Plain != 2 || out.Sampled != 7 ||
			out.Count != len(ws) || !slices.Equal(out.Wells, ws) && len(ws) > 0 {
			t.Fatalf("read back %+v", out)
		}
	}
}

// TestSamplesRefused: damaged, truncated, foreign files and wells with
// cells above the bar are refused with ErrInvalid (or a write error).
func TestSamplesRefused(t *testing.T) {
	r := hatetris.Standard()
	path := filepath.Join(t.TempDir(), "samples.bin")
	if err := Write(path, r, &File{Wells: someWells()}); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	flip := bytes.Clone(good)
	flip[len(flip)/2] ^= 1
	for name, data := range map[string][]byte{
		"empty":     nil,
		"foreign":   []byte("HLNNUE1\n{}"),
		"truncated": good[:len(good)-7],
		"flipped":   flip,
	} {
		if _, err := Parse(data, r); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	bad := someWells()
	bad[0][0] = 1
	if err := Write(path, r, &File{Wells: bad}); err == nil {
		t.Error("a well with cells above the bar was written")
	}
}

// FuzzParseSamples: no input makes the parser panic, and what it accepts
// has as many wells as its header says.
func FuzzParseSamples(f *testing.F) {
	r := hatetris.Standard()
	path := filepath.Join(f.TempDir(), "samples.bin")
	if err := Write(path, r, &File{Wells: someWells()}); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	f.Add(good)
	f.Add([]byte(Magic + "{}\n\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := Parse(data, r)
		if err == nil && len(sf.Wells) != sf.Count {
			t.Fatalf("%d wells, header %d", len(sf.Wells), sf.Count)
		}
	})
}

func TestDistinct(t *testing.T) {
	ws := someWells()
	in := []hatetris.Well{ws[1], ws[0], ws[1], ws[2], ws[0]}
	if got := Distinct(in); !slices.Equal(got, []hatetris.Well{ws[1], ws[0], ws[2]}) {
		t.Errorf("Distinct: %d wells", len(got))
	}
}

// TestReadHostile: Read refuses, in one line and before reading the
// wells, a folder, a FIFO, a 10 GB sparse file that begins like a samples
// file, and a file whose header announces more wells than it holds.
func TestReadHostile(t *testing.T) {
	r := hatetris.Standard()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	if err := Write(good, r, &File{Wells: someWells()}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	sparse := filepath.Join(dir, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data[:len(data)-4])
	if err := f.Truncate(10 << 30); err != nil {
		t.Skipf("no sparse files: %v", err)
	}
	f.Close()
	more := filepath.Join(dir, "more.bin")
	os.WriteFile(more, bytes.Replace(data, []byte(`"count":5`), []byte(`"count":9`), 1), 0o644)
	paths := map[string]string{"folder": dir, "10 GB sparse": sparse, "count past the data": more}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		paths["fifo"] = fifo
	}
	for name, p := range paths {
		if _, err := Read(p, r); !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line of ErrInvalid", name, err)
		}
	}
	if sf, err := Read(good, r); err != nil || len(sf.Wells) != len(someWells()) {
		t.Fatalf("good file: %v", err)
	}
}
