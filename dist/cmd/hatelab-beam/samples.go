package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// samplesMagic opens the samples files of `hatelab nnue cycle` (the magic,
// one line of JSON header with count and rows, the wells' rows below the
// bar as little-endian uint16, top first, then the CRC-32C of everything
// before, 4 bytes little-endian).
const samplesMagic = "HLSAMP1\n"

// parseSamples reads the wells of a samples file: nnue cycle's binary
// format, or JSON with a "wells" array (its older format).
func parseSamples(data []byte, r *hatetris.Rules) ([]hatetris.Well, error) {
	if !bytes.HasPrefix(data, []byte(samplesMagic)) {
		var sf struct {
			Wells []hatetris.Well `json:"wells"`
		}
		if err := json.Unmarshal(data, &sf); err != nil {
			return nil, fmt.Errorf("not a samples file (%v)", err)
		}
		return sf.Wells, nil
	}
	if len(data) < len(samplesMagic)+4 {
		return nil, fmt.Errorf("a truncated samples file")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) != sum {
		return nil, fmt.Errorf("a damaged samples file: checksum mismatch")
	}
	rest := body[len(samplesMagic):]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("a damaged samples file: no header line")
	}
	var h struct {
		Count int `json:"count"`
		Rows  int `json:"rows"`
	}
	if err := json.Unmarshal(rest[:nl], &h); err != nil {
		return nil, fmt.Errorf("a damaged samples file: header: %v", err)
	}
	rows := rest[nl+1:]
	if h.Rows != r.Depth-r.Bar || h.Count < 0 || len(rows) != 2*h.Count*h.Rows {
		return nil, fmt.Errorf("a samples file of %d wells of %d rows in %d bytes, want rows of a %dx%d well", h.Count, h.Rows, len(rows), r.Width, r.Depth-r.Bar)
	}
	wells := make([]hatetris.Well, h.Count)
	for i := range wells {
		for y := 0; y < h.Rows; y++ {
			v := binary.LittleEndian.Uint16(rows[2*(i*h.Rows+y):])
			if v&^(1<<r.Width-1) != 0 {
				return nil, fmt.Errorf("samples file: well %d row %d has cells outside a %d-wide well", i, y, r.Width)
			}
			wells[i][r.Bar+y] = v
		}
	}
	return wells, nil
}
