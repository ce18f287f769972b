package testvectors

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

func TestReadJSONL(t *testing.T) {
	dir := t.TempDir()
	text := []byte("{\"a\":1}\n{\"a\":2}\n")
	plain := filepath.Join(dir, "v.jsonl")
	if err := os.WriteFile(plain, text, 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(text)
	w.Close()
	gz := filepath.Join(dir, "v.jsonl.gz")
	if err := os.WriteFile(gz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, gz} {
		got := ReadJSONL[struct{ A int }](t, p)
		if len(got) != 2 || got[0].A != 1 || got[1].A != 2 {
			t.Fatalf("%s: %+v", p, got)
		}
	}
}
