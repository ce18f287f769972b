package cycle

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

// samplesMagic opens a samples file: the magic, one line of JSON header
// (samplesFile without the wells), the wells' rows below the bar as
// little-endian uint16 (Rows per well, top first), then the CRC-32C
// (Castagnoli) of everything before it, little-endian.
const samplesMagic = "HLSAMP1\n"

// maxSamples bounds a samples file's wells (a header asking for more is
// refused before anything is allocated).
const maxSamples = 1 << 26

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// samplesFile is a generation's sampled wells with their provenance.
type samplesFile struct {
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

// writeSamples writes sf to path atomically (rows Bar..Depth-1 of r).
func writeSamples(path string, r *hatetris.Rules, sf *samplesFile) error {
	sf.Count, sf.Rows = len(sf.Wells), r.Depth-r.Bar
	for i := range sf.Wells {
		for y := range r.Bar {
			if sf.Wells[i][y] != 0 {
				return fmt.Errorf("cycle: sampled well %d has cells above the bar", i)
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
		bw.WriteString(samplesMagic)
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

// readSamples reads a samples file written by writeSamples for rules r.
func readSamples(path string, r *hatetris.Rules) (*samplesFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseSamples(data, r)
}

// errSamples is the error of a damaged or foreign samples file.
var errSamples = errors.New("cycle: not a valid samples file")

func parseSamples(data []byte, r *hatetris.Rules) (*samplesFile, error) {
	if len(data) < len(samplesMagic)+4 || string(data[:len(samplesMagic)]) != samplesMagic {
		return nil, fmt.Errorf("%w: no %q magic", errSamples, samplesMagic[:7])
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errSamples)
	}
	rest := body[len(samplesMagic):]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("%w: no header line", errSamples)
	}
	var sf samplesFile
	if err := json.Unmarshal(rest[:nl], &sf); err != nil {
		return nil, fmt.Errorf("%w: header: %v", errSamples, err)
	}
	rows := rest[nl+1:]
	if sf.Rows != r.Depth-r.Bar || sf.Count < 0 || sf.Count > maxSamples || len(rows) != 2*sf.Count*sf.Rows {
		return nil, fmt.Errorf("%w: %d wells of %d rows in %d bytes (want rows %d)", errSamples, sf.Count, sf.Rows, len(rows), r.Depth-r.Bar)
	}
	sf.Wells = make([]hatetris.Well, sf.Count)
	for i := range sf.Wells {
		for y := range sf.Rows {
			v := binary.LittleEndian.Uint16(rows[2*(i*sf.Rows+y):])
			if v&^(1<<r.Width-1) != 0 {
				return nil, fmt.Errorf("%w: well %d row %d has cells outside a %d-wide well", errSamples, i, y, r.Width)
			}
			sf.Wells[i][r.Bar+y] = v
		}
	}
	return &sf, nil
}

// distinctWells returns ws without repeats, first occurrences in order.
func distinctWells(ws []hatetris.Well) []hatetris.Well {
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
