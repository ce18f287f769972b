package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func tinyFile(t testing.TB) []byte {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	n := randomNetwork(t, fs, 4, HardTanh, 0.5, 1)
	n.Header.Name, n.Header.Provenance = "tiny", "test"
	b, err := Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFileRoundTrip: Save then Load gives the same network, and the file
// is Magic, the header length, the header and 4*(F*H+2H+1) tensor bytes.
func TestFileRoundTrip(t *testing.T) {
	for _, v := range []Variant{Shared, Positional} {
		fs, _ := NewFeatureSet(v, 6, 5)
		n := randomNetwork(t, fs, 12, Tanh, 0.3, 2)
		n.ScoreWeight = -1.5
		n.Header = Header{Name: "x", Generation: 3, Provenance: "p", Metrics: map[string]float64{"mse": 0.25}, QA: 128}
		path := filepath.Join(t.TempDir(), "x.hlnn")
		if err := Save(path, n); err != nil {
			t.Fatal(err)
		}
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.W1, n.W1) || !slices.Equal(m.B1, n.B1) || !slices.Equal(m.W2, n.W2) || m.B2 != n.B2 ||
			m.Activation != Tanh || m.Hidden != 12 || m.ScoreWeight != -1.5 || m.Features.String() != fs.String() ||
			m.Header.Generation != 3 || m.Header.Metrics["mse"] != 0.25 || m.Header.QA != 128 {
			t.Fatalf("%s: round trip differs", v)
		}
		b, _ := os.ReadFile(path)
		hl := int(binary.LittleEndian.Uint32(b[8:]))
		if string(b[:8]) != Magic || len(b) != 12+hl+4*(fs.Count()*12+2*12+1) {
			t.Fatalf("%s: layout: %d bytes", v, len(b))
		}
	}
}

// TestFileErrors: defects are one-line errors.
func TestFileErrors(t *testing.T) {
	good := tinyFile(t)
	hl := int(binary.LittleEndian.Uint32(good[8:]))
	header := string(good[12 : 12+hl])
	withHeader := func(h string) []byte {
		b := append([]byte(Magic), binary.LittleEndian.AppendUint32(nil, uint32(len(h)))...)
		return append(append(b, h...), good[12+hl:]...)
	}
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"magic", append([]byte("HLNNUE2\n"), good[8:]...), "bad magic"},
		{"header length", append(append([]byte(Magic), 0xff, 0xff, 0xff, 0x7f), good[12:]...), "header length"},
		{"json", withHeader("{"), "weights header"},
		{"unknown field", withHeader(strings.Replace(header, `"format"`, `"bogus":1,"format"`, 1)), "unknown field"},
		{"variant", withHeader(strings.Replace(header, `"shared"`, `"diagonal"`, 1)), "variant"},
		{"width", withHeader(strings.Replace(header, `"width":4`, `"width":40`, 1)), "width"},
		{"features", withHeader(strings.Replace(header, `"features":4112`, `"features":4111`, 1)), "features"},
		{"hidden", withHeader(strings.Replace(header, `"hidden":4`, `"hidden":5`, 1)), "tensor"},
		{"activation", withHeader(strings.Replace(header, `"hardtanh"`, `"relu6"`, 1)), "activation"},
		{"truncated", good[:len(good)-1], "tensor bytes"},
		{"trailing", append(slices.Clone(good), 0), "tensor bytes"},
		{"corrupt", append(slices.Clone(good[:len(good)-1]), good[len(good)-1]^1), "checksum"},
	} {
		path := filepath.Join(t.TempDir(), "bad.hlnn")
		if err := os.WriteFile(path, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		for how, read := range map[string]func() (*Network, error){
			"Unmarshal": func() (*Network, error) { return Unmarshal(c.b) },
			"Read":      func() (*Network, error) { return Read(bytes.NewReader(c.b)) },
			"Load":      func() (*Network, error) { return Load(path) },
		} {
			_, err := read()
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s by %s: %v, want a one-line error about %q", c.name, how, err, c.want)
			}
		}
	}
	if _, err := Unmarshal(good); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.hlnn")); err == nil {
		t.Fatal("missing file: no error")
	}
}

// endless is an endless stream of zeros after a prefix (a /dev/zero).
type endless struct{ prefix []byte }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	clear(p[n:])
	return len(p), nil
}

// TestLoadHostile: inputs that are not weights files of a computable size
// give one line, and nothing is read past what the header announces: a
// folder, a FIFO, a 10 GB sparse file beginning with a valid file, and
// endless zeros after the magic or after a whole header.
func TestLoadHostile(t *testing.T) {
	dir := t.TempDir()
	good := tinyFile(t)
	sparse := filepath.Join(dir, "sparse.hlnn")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(good)
	if err := f.Truncate(10 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	trunc := filepath.Join(dir, "short.hlnn")
	os.WriteFile(trunc, good[:len(good)-100], 0o644)
	paths := map[string]string{"folder": dir, "10 GB sparse": sparse, "truncated": trunc}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		paths["fifo"] = fifo
	}
	for name, p := range paths {
		if _, err := Load(p); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line", name, err)
		}
	}
	hl := int(binary.LittleEndian.Uint32(good[8:]))
	for name, r := range map[string]*endless{"zeros after the magic": {[]byte(Magic)}, "zeros after the header": {good[:12+hl]}} {
		if _, err := Read(r); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line", name, err)
		}
	}
}

// TestSaveTargets: Save refuses a folder or a FIFO as its target and
// leaves no temporary file; over a regular file it replaces it.
func TestSaveTargets(t *testing.T) {
	dir := t.TempDir()
	fs, _ := NewFeatureSet(Shared, 4, 4)
	n := randomNetwork(t, fs, 4, HardTanh, 0.5, 1)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	targets := []string{sub}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		targets = append(targets, fifo)
	}
	for _, p := range targets {
		if err := Save(p, n); err == nil {
			t.Errorf("Save over %s: no error", p)
		}
	}
	ok := filepath.Join(dir, "ok.hlnn")
	for range 2 {
		if err := Save(ok, n); err != nil {
			t.Fatal(err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != len(targets)+1 {
		t.Fatalf("%d entries, want %d (no temporary files)", len(ents), len(targets)+1)
	}
}

// FuzzUnmarshal: the reader never panics, and what it accepts writes back
// to a file it reads the same.
func FuzzUnmarshal(f *testing.F) {
	f.Add(tinyFile(f))
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := Unmarshal(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		b2, err := Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Unmarshal(b2)
		if err != nil || !slices.Equal(m.W1, n.W1) || m.B2 != n.B2 {
			t.Fatalf("rewrite differs: %v", err)
		}
		if _, err := Quantize(m, 0, 0); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatal(err)
		}
	})
}

// ExampleMarshal writes a tiny network and reads it back.
func ExampleMarshal() {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	n, _ := NewNetwork(fs, 4, HardTanh)
	n.Header.Name = "tiny"
	b, _ := Marshal(n)
	m, _ := Read(bytes.NewReader(b))
	fmt.Println(m.Header.Name, m.Features, m.Hidden, len(b))
	// Output: tiny shared 4x4 (F=4112, K=6) 4 66197
}
