package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/internal/boundedfile"
)

// maxTargetPieces bounds a target beam's pieces (nnue targets
// --target-pieces); the beam widths' bound is flags.MaxBeamWidth.
const maxTargetPieces = 1 << 16

// maxSamplesBytes bounds the samples file read: samples.MaxWells wells of
// 32 rows, as JSON numbers of up to 6 bytes each.
const maxSamplesBytes = int64(samples.MaxWells) * hatetris.MaxDepth * 6

// readSamplesFile reads a samples file, refusing one that is not a regular
// file (a FIFO would block, a device never end) or is larger than any
// samples file can be, before reading it (boundedfile, as hatelab's
// readers of input files).
func readSamplesFile(path string) ([]byte, error) {
	return boundedfile.ReadFile(path, maxSamplesBytes, "samples file")
}

// parseSamples reads the wells of a samples file: nnue cycle's binary
// format (engine/nnue/samples), or JSON with a "wells" array (its older
// format: each well an array of its rows from the top, at most
// hatetris.MaxDepth). A JSON file without "wells" ({} or null, or a
// targets file given by mistake), with no wells, with fields it does not
// know, or with a well that does not fit r (cells outside the well, rows
// past its depth, blocks above the bar) is refused in one line.
func parseSamples(data []byte, r *hatetris.Rules) ([]hatetris.Well, error) {
	if bytes.HasPrefix(data, []byte(samples.Magic)) {
		sf, err := samples.Parse(data, r)
		if err != nil {
			return nil, err
		}
		return sf.Wells, nil
	}
	var sf struct {
		Wells *[][]int64 `json:"wells"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sf); err != nil {
		return nil, fmt.Errorf("not a samples file (%v)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a samples file (more after its JSON object)")
	}
	if sf.Wells == nil {
		return nil, errors.New(`not a samples file: no "wells" array`)
	}
	if len(*sf.Wells) == 0 {
		return nil, errors.New("no wells")
	}
	wells := make([]hatetris.Well, len(*sf.Wells))
	for i, rows := range *sf.Wells {
		if len(rows) > hatetris.MaxDepth {
			return nil, fmt.Errorf("well %d: %d rows, more than a well has (%d)", i, len(rows), hatetris.MaxDepth)
		}
		for y, v := range rows {
			switch {
			case v < 0 || v >= 1<<r.Width:
				return nil, fmt.Errorf("well %d row %d: %d has cells outside a %d-wide well", i, y, v, r.Width)
			case v != 0 && y >= r.Depth:
				return nil, fmt.Errorf("well %d row %d: blocks past the well's %d rows", i, y, r.Depth)
			case v != 0 && y < r.Bar:
				return nil, fmt.Errorf("well %d row %d: blocks above the bar (%d rows)", i, y, r.Bar)
			}
			wells[i][y] = uint16(v)
		}
	}
	return wells, nil
}
