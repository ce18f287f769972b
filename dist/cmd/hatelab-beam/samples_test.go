package main

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/samples"
)

func TestParseSamples(t *testing.T) {
	r := hatetris.Standard()
	var a, b hatetris.Well
	a[r.Depth-1] = 0x1ff
	b[r.Depth-2], b[r.Depth-1] = 0x3, 0x1fe
	rows := r.Depth - r.Bar
	bin := []byte(samples.Magic + `{"count":2,"rows":16}` + "\n")
	for _, w := range []hatetris.Well{a, b} {
		for y := 0; y < rows; y++ {
			bin = binary.LittleEndian.AppendUint16(bin, w[r.Bar+y])
		}
	}
	bin = binary.LittleEndian.AppendUint32(bin, crc32.Checksum(bin, crc32.MakeTable(crc32.Castagnoli)))
	damaged := slices.Clone(bin)
	damaged[20] ^= 1
	for _, tc := range []struct {
		name string
		data []byte
		want []hatetris.Well
		ok   bool
	}{
		{"binary", bin, []hatetris.Well{a, b}, true},
		{"json", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,511]]}`), []hatetris.Well{a}, true},
		{"damaged", damaged, nil, false},
		{"truncated", bin[:10], nil, false},
		{"not json", []byte("hello"), nil, false},
		{"json, the whole array of 32 rows", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,511,0,0,0,0,0,0,0,0,0,0,0,0]]}`), []hatetris.Well{a}, true},
		// Issue 30 (S4): each of these was read as zero wells, or cut.
		{"{}", []byte(`{}`), nil, false},
		{"null", []byte(`null`), nil, false},
		{"a targets file", []byte(`{"targets":[0.5,0.25]}`), nil, false},
		{"no wells", []byte(`{"wells":[]}`), nil, false},
		{"cells outside the well", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1024]]}`), nil, false},
		{"a negative row", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1]]}`), nil, false},
		{"blocks on row 20", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1]]}`), nil, false},
		{"33 rows", []byte(`{"wells":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]]}`), nil, false},
		{"blocks above the bar", []byte(`{"wells":[[1]]}`), nil, false},
		{"two objects", []byte(`{"wells":[[0]]} {"wells":[[0]]}`), nil, false},
	} {
		got, err := parseSamples(tc.data, r)
		if (err == nil) != tc.ok || (tc.ok && !slices.Equal(got, tc.want)) {
			t.Errorf("%s: %v, %v", tc.name, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q is not one line", tc.name, err)
		}
	}
}
