// Package samples is the file format of NNUE training samples: the wells
// a generation's master beam sampled, with their provenance. A file is the
// magic "HLSAMP1\n", one line of JSON header (File without the wells),
// the wells' rows below the bar as little-endian uint16 (Rows per well, top
// first), then the CRC-32C (Castagnoli) of everything before it,
// little-endian. Written by engine/nnue/cycle (samples.bin of each
// generation) and read there and by the Beam engine's target generation;
// no GoMLX here.
package samples

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
)

// Magic opens a samples file.
const Magic = "HLSAMP1\n"

// MaxWells bounds a samples file's wells (a header asking for more is
// refused before anything is allocated).
const MaxWells = 1 << 26

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// File is a generation's sampled wells with their provenance.
type File struct {
	Provenance string  `json:"provenance"`
	Score      int     `json:"master_score"`
	Pieces     int     `json:"master_pieces"`
	Plain      int     `json:"master_score_without_quiescence"`
	Seconds    float64 `json:"seconds"`
	// Sampled is the reservoir's size before duplicates were dropped.
	Sampled int `json:"sampled"`
	// Count wells of Rows rows (below the bar) each, in Bar..Depth-1 of
	// the standard well.
	Count int             `json:"count"`
	Rows  int             `json:"rows"`
	Wells []hatetris.Well `json:"-"`
}

// Write writes sf to path atomically (rows Bar..Depth-1 of r; a well
// with cells above the bar is an error). It sets Count and Rows.
func Write(path string, r *hatetris.Rules, sf *File) error {
	sf.Count, sf.Rows = len(sf.Wells), r.Depth-r.Bar
	for i := range sf.Wells {
		for y := range r.Bar {
			if sf.Wells[i][y] != 0 {
				return fmt.Errorf("samples: well %d has cells above the bar", i)
			}
		}
	}
	head, err := json.Marshal(sf)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		crc := crc32.New(castagnoli)
		bw := bufio.NewWriter(io.MultiWriter(w, crc))
		bw.WriteString(Magic)
		bw.Write(head)
		bw.WriteByte('\n')
		var b [2]byte
		for i := range sf.Wells {
			for _, row := range sf.Wells[i][r.Bar:r.Depth] {
				binary.LittleEndian.PutUint16(b[:], row)
				bw.Write(b[:])
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return binary.Write(w, binary.LittleEndian, crc.Sum32())
	})
}

// Read reads a samples file written by Write for rules r.
func Read(path string, r *hatetris.Rules) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, r)
}

// ErrInvalid is the error of a damaged or foreign samples file.
var ErrInvalid = errors.New("not a valid samples file")

// Parse decodes a samples file's bytes for rules r.
func Parse(data []byte, r *hatetris.Rules) (*File, error) {
	if len(data) < len(Magic)+4 || string(data[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%w: no %q magic", ErrInvalid, Magic[:7])
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrInvalid)
	}
	rest := body[len(Magic):]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("%w: no header line", ErrInvalid)
	}
	var sf File
	if err := json.Unmarshal(rest[:nl], &sf); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrInvalid, err)
	}
	rows := rest[nl+1:]
	if sf.Rows != r.Depth-r.Bar || sf.Count < 0 || sf.Count > MaxWells || len(rows) != 2*sf.Count*sf.Rows {
		return nil, fmt.Errorf("%w: %d wells of %d rows in %d bytes (want rows %d)", ErrInvalid, sf.Count, sf.Rows, len(rows), r.Depth-r.Bar)
	}
	sf.Wells = make([]hatetris.Well, sf.Count)
	for i := range sf.Wells {
		for y := range sf.Rows {
			v := binary.LittleEndian.Uint16(rows[2*(i*sf.Rows+y):])
			if v&^(1<<r.Width-1) != 0 {
				return nil, fmt.Errorf("%w: well %d row %d has cells outside a %d-wide well", ErrInvalid, i, y, r.Width)
			}
			sf.Wells[i][r.Bar+y] = v
		}
	}
	return &sf, nil
}

// Distinct returns ws without repeats, first occurrences in order.
func Distinct(ws []hatetris.Well) []hatetris.Well {
	seen := make(map[hatetris.Well]struct{}, len(ws))
	out := ws[:0:0]
	for _, w := range ws {
		if _, ok := seen[w]; !ok {
			seen[w] = struct{}{}
			out = append(out, w)
		}
	}
	return out
}
