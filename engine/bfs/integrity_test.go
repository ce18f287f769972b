package bfs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oneLine checks that err is an input error of one line containing want.
func oneLine(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !errors.Is(err, ErrInput) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: %v; want one input-error line containing %q", what, err, want)
	}
}

// checkpointAt runs a 10x4 search that stops after max levels, leaving a
// checkpoint in dir (and its level files in levels, if set).
func checkpointAt(t testing.TB, dir, levels string, max int) Options {
	opt := Options{Width: 10, Height: 4, Workers: 2, Checkpoint: dir, MaxLevels: max, LevelDir: levels}
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	opt.MaxLevels = 0
	return opt
}

// TestDamagedFrontier: 200 flipped bytes in a frontier file are refused on
// resume with one line naming the file; so are a truncated one and a
// checkpoint.json edited to "Done": true. The frontier's checksum is in
// its trailer and in checkpoint.json.
func TestDamagedFrontier(t *testing.T) {
	dir := t.TempDir()
	opt := checkpointAt(t, dir, "", 6)
	b, err := os.ReadFile(filepath.Join(dir, checkpointName))
	if err != nil {
		t.Fatal(err)
	}
	var ck checkpoint
	if err := json.Unmarshal(b, &ck); err != nil || ck.LevelFile == "" || ck.LevelCRC == 0 || !strings.HasPrefix(ck.Checksum, "crc32c:") {
		t.Fatalf("checkpoint %s: %v", b, err)
	}
	front := filepath.Join(dir, ck.LevelFile)
	good, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	bad := bytes.Clone(good)
	for i := 0; i < 200; i++ {
		bad[16+8*256+rng.IntN(len(bad)-16-8*256)] ^= byte(1 + rng.IntN(255))
	}
	os.WriteFile(front, bad, 0o644)
	_, err = Search(context.Background(), opt)
	oneLine(t, "200 flipped bytes", err, ck.LevelFile)

	os.WriteFile(front, good[:len(good)-5], 0o644)
	_, err = Search(context.Background(), opt)
	oneLine(t, "truncated", err, "truncated or damaged")

	// The checkpoint's own record of the frontier: a valid level file of
	// another level is refused too.
	other := filepath.Join(t.TempDir(), "other")
	checkpointAt(t, other, "", 5)
	var ock checkpoint
	cb, _ := os.ReadFile(filepath.Join(other, checkpointName))
	json.Unmarshal(cb, &ock)
	ob, err := os.ReadFile(filepath.Join(other, ock.LevelFile))
	if err != nil || ock.LevelFile == ck.LevelFile {
		t.Fatalf("another level: %v %s", err, ock.LevelFile)
	}
	os.WriteFile(front, ob, 0o644)
	_, err = Search(context.Background(), opt)
	oneLine(t, "another level", err, "not the level file the checkpoint saved")

	os.WriteFile(front, good, 0o644)
	edited := strings.Replace(string(b), `"Done": false`, `"Done": true`, 1)
	if edited == string(b) {
		t.Fatal("no Done in the checkpoint")
	}
	os.WriteFile(filepath.Join(dir, checkpointName), []byte(edited), 0o644)
	_, err = Search(context.Background(), opt)
	oneLine(t, "edited Done", err, "checksum mismatch")

	// The same edit in a checkpoint of version 2 (no checksum) is caught
	// by the cross-checks: a finished search names no frontier.
	v2 := strings.Replace(edited, `"Version": 3`, `"Version": 2`, 1)
	os.WriteFile(filepath.Join(dir, checkpointName), []byte(v2), 0o644)
	_, err = Search(context.Background(), opt)
	oneLine(t, "edited Done, version 2", err, "a finished search without its levels")

	os.WriteFile(filepath.Join(dir, checkpointName), b, 0o644)
	if _, err := Search(context.Background(), opt); err != nil {
		t.Fatalf("the restored checkpoint: %v", err)
	}
}

// TestDamagedLevels: bfs-replay's reader on a bad meta.json (StartRows too
// long, levels that do not agree, an edit) and on damaged level files:
// one line naming the file, never a panic.
func TestDamagedLevels(t *testing.T) {
	dir := t.TempDir()
	if _, err := Search(context.Background(), Options{Width: 5, Height: 4, LevelDir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := Reconstruct(dir, Longest); err != nil {
		t.Fatal(err)
	}
	metaPath := filepath.Join(dir, metaName)
	meta, _ := os.ReadFile(metaPath)
	var m levelMeta
	if err := json.Unmarshal(meta, &m); err != nil {
		t.Fatal(err)
	}
	reseal := func(edit func(*levelMeta)) {
		mm := m
		mm.Levels = append([]Level(nil), m.Levels...)
		edit(&mm)
		b, err := sealJSON(&mm, &mm.Checksum)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(metaPath, b, 0o644)
	}
	for _, tc := range []struct {
		name string
		edit func(*levelMeta)
		want string
	}{
		{"StartRows too long", func(m *levelMeta) { m.StartRows = make([]int, 40) }, "StartRows has 40 rows, want 8"},
		{"StartRows above the bar", func(m *levelMeta) { m.StartRows = make([]int, 8); m.StartRows[0] = 1 }, "StartRows row 0"},
		{"length past the levels", func(m *levelMeta) { m.Length = 99 }, "do not agree"},
		{"negative length", func(m *levelMeta) { m.Length = -5 }, "do not agree"},
		{"score", func(m *levelMeta) { m.Score = 7 }, "not the best score"},
		{"width", func(m *levelMeta) { m.Width = 99 }, "width 99"},
		{"v1 long StartRows", func(m *levelMeta) { m.Version = 0; m.StartRows = make([]int, 40) }, "StartRows has 40 rows"},
	} {
		reseal(tc.edit)
		_, err := Reconstruct(dir, HighestScoring)
		oneLine(t, tc.name, err, tc.want)
	}
	os.WriteFile(metaPath, bytes.Replace(meta, []byte(`"Score": `), []byte(`"Score": 1`), 1), 0o644)
	_, err := Reconstruct(dir, Longest)
	oneLine(t, "edited meta", err, "checksum mismatch")
	os.WriteFile(metaPath, meta, 0o644)

	lf := levelPath(dir, 3)
	good, _ := os.ReadFile(lf)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "level-00003.bin: not a level file"},
		{"truncated", good[:len(good)-9], "level-00003.bin: "},
		{"flipped", flip(good, len(good)-12), "level-00003.bin: "},
		{"bad magic", append([]byte("XXXXXXXX"), good[8:]...), "bad magic"},
	} {
		os.WriteFile(lf, tc.data, 0o644)
		_, err := Reconstruct(dir, Longest)
		oneLine(t, tc.name, err, tc.want)
	}
	os.WriteFile(lf, good, 0o644)
	if _, err := Reconstruct(dir, Longest); err != nil {
		t.Fatal(err)
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// FuzzCheckpoint: parseCheckpoint on any bytes returns a checkpoint or an
// input error, never panics; one it accepts passes its own checks.
func FuzzCheckpoint(f *testing.F) {
	dir := f.TempDir()
	opt := checkpointAt(f, dir, "", 7)
	b, err := os.ReadFile(filepath.Join(dir, checkpointName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(bytes.Replace(b, []byte(`"Version": 3`), []byte(`"Version": 2`), 1))
	f.Add(bytes.Replace(b, []byte(`"Done": false`), []byte(`"Done": true`), 1))
	f.Add([]byte(`{"Version":1}`))
	want := checkpointFor(opt, mustCodec(f, 10, 4))
	f.Fuzz(func(t *testing.T, data []byte) {
		ck, err := parseCheckpoint("checkpoint.json", data, want)
		if err != nil {
			if !errors.Is(err, ErrInput) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if !ck.Done && ck.LevelFile != filepathBase(ck.LevelFile) {
			t.Fatalf("level file %q", ck.LevelFile)
		}
	})
}

func filepathBase(s string) string { return filepath.Base(s) }

// FuzzLevelFile: the level-file readers (verifyLevelFile, readLevelFile,
// the stream of openLevel) on any bytes: an input error naming the file,
// or a level whose partitions are sorted; never a panic.
func FuzzLevelFile(f *testing.F) {
	dir := f.TempDir()
	checkpointAt(f, dir, filepath.Join(dir, "levels"), 7)
	// Small seeds (the levels of few states) keep the fuzzer quick.
	var b []byte
	for _, d := range []int{1, 2} {
		lb, err := os.ReadFile(levelPath(filepath.Join(dir, "levels"), d))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(lb)
		b = lb
	}
	v1 := bytes.Clone(b[:len(b)-8])
	copy(v1, levelMagicV1)
	f.Add(v1)
	f.Add([]byte(levelMagic))
	parts := mustCodec(f, 10, 4).parts()
	d := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := levelPath(d, 0)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		verr := verifyLevelFile(path, parts)
		l := newMemLevel(parts)
		rerr := readLevelFile(path, l, nil)
		if (verr == nil) != (rerr == nil) {
			t.Fatalf("verify %v, read %v", verr, rerr)
		}
		for _, err := range []error{verr, rerr} {
			if err != nil && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), path)) {
				t.Fatalf("error %v", err)
			}
		}
		if rerr == nil {
			lr, err := openLevel(d, 0, parts)
			if err != nil {
				t.Fatal(err)
			}
			n := int64(0)
			for {
				_, _, ok, err := lr.next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				n++
			}
			lr.Close()
			if n != l.size() {
				t.Fatalf("streamed %d states, read %d", n, l.size())
			}
		}
		l.release()
	})
}

// FuzzMeta: Reconstruct on any meta.json beside real level files: a game
// that verifies, or an input error; never a panic.
func FuzzMeta(f *testing.F) {
	dir := f.TempDir()
	if _, err := Search(context.Background(), Options{Width: 4, Height: 3, LevelDir: dir}); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, metaName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"Width":4,"Height":3,"Rule":"qntm","StartRows":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"Levels":[{"level":0,"states":1}]}`))
	d := f.TempDir()
	for i := 0; ; i++ {
		lb, err := os.ReadFile(levelPath(dir, i))
		if err != nil {
			break
		}
		os.WriteFile(levelPath(d, i), lb, 0o644)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		os.WriteFile(filepath.Join(d, metaName), data, 0o644)
		g, err := Reconstruct(d, Longest)
		if err != nil {
			if !errors.Is(err, ErrInput) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if err := g.Verify(); err != nil {
			t.Fatal(err)
		}
	})
}
